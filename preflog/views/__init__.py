"""Views: plain-data shapes of audited pulkas for machines (JSON)."""

from .json import audit_json
from .json import contract_text
from .json import finding_json
from .json import frac
from .json import settle_json
from .json import settlement_json
from .json import sheet_json

__all__ = ["audit_json", "contract_text", "finding_json", "frac", "settle_json", "settlement_json", "sheet_json"]
