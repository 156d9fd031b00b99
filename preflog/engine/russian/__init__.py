"""The Russian family (Sochi, Leningrad, Rostov): auction and deal."""
