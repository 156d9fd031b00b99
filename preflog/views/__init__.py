"""Views: plain-data shapes of audited pulkas for machines (JSON)."""

from .json import AUDIT_JSON_VERSION
from .json import CLI_JSON_VERSION
from .json import audit_doc
from .json import audit_json
from .json import contract_text
from .json import finding_json
from .json import frac
from .json import import_json
from .json import ls_json
from .json import settle_json
from .json import settlement_json
from .json import sheet_json
from .json import table_json
from .json import verify_json

__all__ = ["AUDIT_JSON_VERSION", "CLI_JSON_VERSION", "audit_doc", "audit_json", "contract_text", "finding_json",
           "frac", "import_json", "ls_json", "settle_json", "settlement_json", "sheet_json", "table_json",
           "verify_json"]
