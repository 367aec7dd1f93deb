"""The Streamlit dashboard over the library: ``replay dashboard STORE|FILE`` (docs/dashboard.md)."""
