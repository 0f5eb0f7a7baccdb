"""lexforge build steps: each module is one step with a ``python -m pipeline.<step>`` entry."""
