"""The Croatian / Slovenian family: auction, defence phase and deal."""
