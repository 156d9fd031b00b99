"""Rule variants as configuration: :class:`Rules`, presets and named overrides."""

from .config import Rules, RulesError
from .presets import CROATIAN, LENINGRAD, NAMED_OVERRIDES, PRESETS, ROSTOV, SLOVENIAN, SOCHI, resolve

__all__ = ["CROATIAN", "LENINGRAD", "NAMED_OVERRIDES", "PRESETS", "ROSTOV", "SLOVENIAN", "SOCHI", "Rules",
           "RulesError", "resolve"]
