"""The rulesets: one package per family of rules, with the same module names in each."""
