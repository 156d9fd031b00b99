"""Domain types: cards and card sets, bids and contracts, defenders' calls."""
