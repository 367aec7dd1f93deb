"""The Streamlit that pyproject.toml asks for has every API the dashboard uses.

Each feature the dashboard's code uses, with the first release that has it. Found in the
releases' own code: ``bind=`` (a widget kept in the URL) is in no widget of 1.54.0 and in
``st.selectbox`` and ``st.date_input`` of 1.55.0 (released 2026-03-03); ``st.button``'s
``width`` and ``st.download_button``'s ``on_click="ignore"`` came earlier (both in 1.54.0, and
in its documentation from 1.48 and 1.45), so the bound is 1.55. A download button's data given
as a callable (made when the button is pressed, on a thread of its own) is in 1.55.0's code
(``marshall_file``: ``callable(data)``, ``media_file_mgr.add_deferred``).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]

#: A use of the API (a regular expression over the dashboard's code) -> a release that has it
#: (the first one for the feature that sets the bound).
NEEDS = {
    r'bind="query-params"': Version("1.55"),
    r'width="stretch"': Version("1.54"),
    r'on_click="ignore"': Version("1.54"),
    r"icon_position=": Version("1.54"),
    r'\(CSV\)", lambda: ': Version("1.55"),  # download_button(label, data=a callable)
}


def streamlit_bound() -> Version:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [Requirement(r) for r in project["project"]["dependencies"]]
    spec = next(r.specifier for r in wanted if r.name == "streamlit")
    return max(Version(s.version) for s in spec if s.operator == ">=")


def test_the_streamlit_bound_has_every_api_the_dashboard_uses() -> None:
    code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "dashboards").rglob("*.py"))
    used = {feature: need for feature, need in NEEDS.items() if re.search(feature, code)}
    assert 'bind="query-params"' in used  # the feature that sets the bound is still used
    assert streamlit_bound() >= max(used.values()), used
