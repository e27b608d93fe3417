"""hexlog services: the rules engine and service, the event store, projections, tournaments."""
