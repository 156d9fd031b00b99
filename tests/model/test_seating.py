"""Who sits in a deal and in which order: one home (preflog.model.outcome) for the engine, the scorer,
the record reader and the bots, which each had a copy."""

from preflog.model.outcome import bidding_order
from preflog.model.outcome import playing_seats


def test_three_players_all_play_first_hand_first() -> None:
    # dealer 0: first hand is seat 1 (the dealer's left), the dealer bids last
    assert bidding_order(3, 0) == (1, 2, 0) and bidding_order(3, 2) == (0, 1, 2)
    assert playing_seats(3, 1) == (0, 1, 2)


def test_the_four_player_dealer_sits_out() -> None:
    assert bidding_order(4, 0) == (1, 2, 3) and bidding_order(4, 2) == (3, 0, 1)
    assert playing_seats(4, 2) == (0, 1, 3)
    for dealer in range(4):
        assert sorted(bidding_order(4, dealer)) == list(playing_seats(4, dealer))
