# Shared by every rule: the validated build configuration, wildcard constraints, code hashes.
import hashlib
import re
import sys
from pathlib import Path

from pipeline.config import load_config
from solver.errors import UserError

CONFIG_FILE = str(workflow.configfiles[-1]) if workflow.configfiles else "config/config.yaml"
try:
    BUILD = load_config(CONFIG_FILE)
except UserError as error:
    sys.exit(f"lexforge: {error}")

LEXICONS = list(BUILD.lexicons)
DEFAULT_LEXICONS = list(BUILD.default)
PYTHON = sys.executable


wildcard_constraints:
    lexicon="|".join(re.escape(name) for name in LEXICONS),


def code_hash(*modules):
    """sha256 of the step's source files: a change to the code reruns the step (params trigger)."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(Path(workflow.basedir, module).read_bytes())
    return digest.hexdigest()[:16]


def spec_hash(lexicon):
    """What of config/config.yaml a lexicon depends on: a change reruns it, and only it."""
    spec = BUILD.lexicons[lexicon]
    text = repr((spec.sources, sorted(spec.reject.items()), sorted(spec.language_data.items())))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def source_files(wildcards):
    return [str(p) for s in BUILD.lexicons[wildcards.lexicon].sources for p in s.files()]


def language_file(wildcards):
    return str(BUILD.lexicons[wildcards.lexicon].language_file)


COMMON_CODE = (
    "pipeline/config.py",
    "pipeline/step.py",
    "pipeline/atomic.py",
    "solver/language.py",
    "solver/errors.py",
)
