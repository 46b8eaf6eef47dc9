#!/usr/bin/env python3
"""Writes samples/speedscope/profile.speedscope.json: a small valid speedscope
file (REFERENCE.md section 7), hand-made to the schema, with one evented
profile (milliseconds, nested O/C, startValue 100) and one sampled profile
(microseconds, samples of shared stacks with weights). Frames carry
file/line/col. Usage: python3 make_sample.py (writes next to this file).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

frames = [
    {"name": "main", "file": "app.py", "line": 1, "col": 1},
    {"name": "load", "file": "app.py", "line": 10},
    {"name": "parse", "file": "parser.py", "line": 5, "col": 3},
    {"name": "compute"},
]

evented = {
    "type": "evented", "name": "MainThread", "unit": "milliseconds",
    "startValue": 100, "endValue": 112.5,
    "events": [
        {"type": "O", "frame": 0, "at": 100},
        {"type": "O", "frame": 1, "at": 101},
        {"type": "O", "frame": 2, "at": 102.25},
        {"type": "C", "frame": 2, "at": 104},
        {"type": "C", "frame": 1, "at": 105},
        {"type": "O", "frame": 3, "at": 105},
        {"type": "C", "frame": 3, "at": 112},
        {"type": "C", "frame": 0, "at": 112.5},
    ],
}

sampled = {
    "type": "sampled", "name": "Worker", "unit": "microseconds",
    "startValue": 100000, "endValue": 100900,
    "samples": [[0, 1], [0, 1, 2], [0, 1, 2], [0, 3], [3]],
    "weights": [100, 200, 150, 250, 200],
}

doc = {
    "$schema": "https://www.speedscope.app/file-format-schema.json",
    "shared": {"frames": frames},
    "profiles": [evented, sampled],
    "name": "hand-made sample",
    "activeProfileIndex": 0,
    "exporter": "speedscope@1.25.0",
}

with open(os.path.join(HERE, "profile.speedscope.json"), "w") as f:
    json.dump(doc, f, indent=2)
