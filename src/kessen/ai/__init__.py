"""COM players that search: information-set MCTS over the engine contract, and its levels."""
