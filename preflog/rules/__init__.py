"""Rule variants as configuration: :class:`Rules`, presets, named overrides, versioned tables."""

from .choices import GameFamily
from .config import Rules, RulesError, check_family, option_family
from .presets import CROATIAN, LENINGRAD, NAMED_OVERRIDES, PRESETS, ROSTOV, SLOVENIAN, SOCHI, resolve
from .versions import resolve_at, rules_of

__all__ = ["CROATIAN", "LENINGRAD", "NAMED_OVERRIDES", "PRESETS", "ROSTOV", "SLOVENIAN", "SOCHI", "GameFamily",
           "Rules", "RulesError", "check_family", "option_family", "resolve", "resolve_at", "rules_of"]
