"""replay: event-sourced log analyzer and replay toolkit for four card games."""
