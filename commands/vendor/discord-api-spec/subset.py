#!/usr/bin/env python3
"""Writes requests.json: the request-body schemas of the routes the fake Discord serves, with
every component they reference, from openapi.json (the fake embeds this, not the whole spec).
Run after replacing openapi.json: python3 subset.py (in this folder)."""
import json

ROUTES = [
    ("post", "/users/@me/channels"),
    ("post", "/channels/{channel_id}/messages"),
    ("put", "/applications/{application_id}/commands"),
    ("put", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("post", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("post", "/webhooks/{webhook_id}/{webhook_token}"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
]

spec = json.load(open("openapi.json"))
schemas = spec["components"]["schemas"]
used = set()


def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "$ref":
                name = x.rsplit("/", 1)[-1]
                if name not in used:
                    used.add(name)
                    walk(schemas[name])
            else:
                walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)


routes = {}
for method, path in ROUTES:
    schema = spec["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    routes[f"{method.upper()} {path}"] = schema
    walk(schema)
out = {
    "commit": open("COMMIT").read().strip(),
    "routes": routes,
    "components": {"schemas": {n: schemas[n] for n in sorted(used)}},
}
with open("requests.json", "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write("\n")
