#!/usr/bin/env python3
"""Checks webhook events a receiver logged (one JSON object per line) against `WebhookEvent` in the OpenAPI
description, with jsonschema (installed with schemathesis). Exits 0 when every event matches, naming each that does
not otherwise. Usage: check_webhook_events.py OPENAPI_YAML EVENTS_JSONL"""
import json
import sys

import jsonschema
import yaml


def main():
    spec = yaml.safe_load(open(sys.argv[1]))
    schema = spec["components"]["schemas"]["WebhookEvent"]
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    events = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
    failures = [f"{event.get('id')}: {error.message}" for event in events for error in validator.iter_errors(event)]
    for failure in failures:
        print(failure)
    print(f"{len(events)} events, {len(failures)} problems")
    return 1 if failures or not events else 0


if __name__ == "__main__":
    sys.exit(main())
