"""Rule variants as configuration: :class:`Rules`, presets, named overrides, versioned tables."""

from .choices import GameFamily
from .config import Rules
from .config import RulesError
from .config import check_family
from .config import option_family
from .presets import CROATIAN
from .presets import LENINGRAD
from .presets import NAMED_OVERRIDES
from .presets import PRESETS
from .presets import ROSTOV
from .presets import SERBIAN
from .presets import SLOVENIAN
from .presets import SOCHI
from .presets import resolve
from .versions import resolve_at
from .versions import rules_of

__all__ = ["CROATIAN", "LENINGRAD", "NAMED_OVERRIDES", "PRESETS", "ROSTOV", "SERBIAN", "SLOVENIAN", "SOCHI",
           "GameFamily", "Rules", "RulesError", "check_family", "option_family", "resolve", "resolve_at", "rules_of"]
