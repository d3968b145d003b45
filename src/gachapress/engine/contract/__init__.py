"""The engine contract: what every game's engine must do, checked by playing it.

``run_contract`` plays a few seeded random games of every mode, player count and option of a
game to their end and checks that the game ends within its bound and offers an action while it
goes on; that its log replays to the same state, the same seed giving the same game whatever
Python's global generator holds; that illegal actions are refused and change nothing; that
observations are JSON data showing no card hidden from their seat; that dealing again what a
seat has not seen changes nothing it sees (the re-deal test); that the State has every method
of the engine API. The first breach is one plain sentence (``Failure``). ``contract_failure``
caches the verdict by the engine's code and the data it plays.
"""

from gachapress.engine.contract.breach import Breach
from gachapress.engine.contract.run import Failure, run_contract
from gachapress.engine.contract.verdict import contract_failure

__all__ = ["Breach", "Failure", "contract_failure", "run_contract"]
