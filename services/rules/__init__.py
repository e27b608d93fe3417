"""The rules: a pure decider (`engine`) and the service that runs it over Redis."""
