#!/usr/bin/env python3
"""Writes fixtures/memory.jsonl (a company directory as the MCP memory server's knowledge graph) and tasks.jsonl
(questions about it, split train/test by person and project, so the test asks about entities no training task named).
Deterministic: run it again and the files are the same. Python 3 standard library only."""
import json
import random
from pathlib import Path

rng = random.Random(7)
FIRST = ["Mara", "Tomas", "Ines", "Karel", "Noor", "Emeka", "Sanne", "Ilya", "Priya", "Jonah", "Leila", "Bruno", "Aiko", "Dmitri",
         "Farah", "Gustav", "Hana", "Ivo", "Jana", "Kofi", "Lucia", "Milan", "Nadia", "Oskar", "Petra", "Rafael", "Selin", "Teodor"]
LAST = ["Quinn", "Okafor", "Lindqvist", "Moreau", "Haddad", "Novak", "Castillo", "Brandt", "Tanaka", "Ferreira", "Kowalski",
        "Dubois", "Nakamura", "Rossi", "Sato", "Varga", "Weber", "Yilmaz", "Zapata", "Abara", "Berg", "Costa"]
CITIES = ["Lisbon", "Porto", "Ghent", "Utrecht", "Tallinn", "Krakow", "Bilbao", "Turin", "Aarhus", "Graz", "Brno", "Leeds"]
LANGUAGES = ["Portuguese", "Dutch", "Estonian", "Polish", "Basque", "Italian", "Danish", "German", "Czech", "Welsh", "Finnish", "Greek"]
TEAMS = ["Payments", "Search", "Billing", "Platform", "Mobile", "Security", "Data", "Support"]
PROJECTS = ["Heron", "Osprey", "Kestrel", "Plover", "Curlew", "Merlin", "Avocet", "Dunlin", "Egret", "Gannet", "Lapwing", "Shrike",
            "Tern", "Wren", "Finch", "Siskin", "Linnet", "Stilt"]

names = set()
while len(names) < 60:
    names.add(rng.choice(FIRST) + " " + rng.choice(LAST))
people = []
extensions = rng.sample(range(2000, 9999), 60)
for i, name in enumerate(sorted(names)):
    people.append({"name": name, "team": rng.choice(TEAMS), "city": rng.choice(CITIES), "language": rng.choice(LANGUAGES),
                   "extension": str(extensions[i])})
projects = []
codes = rng.sample(range(1000, 9999), len(PROJECTS))
for i, p in enumerate(PROJECTS):
    projects.append({"name": "Project " + p, "deadline": "2027-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28)),
                     "code": p[:3].upper() + "-" + str(codes[i])})

here = Path(__file__).resolve().parent
with open(here / "fixtures" / "memory.jsonl", "w") as f:
    for p in people:
        f.write(json.dumps({"type": "entity", "name": p["name"], "entityType": "person", "observations": [
            "works in " + p["team"], "based in " + p["city"], "speaks " + p["language"], "phone extension " + p["extension"]]}) + "\n")
    for p in projects:
        f.write(json.dumps({"type": "entity", "name": p["name"], "entityType": "project", "observations": [
            "deadline " + p["deadline"], "budget code " + p["code"]]}) + "\n")

PERSON_QUESTIONS = [
    ("extension", "What phone extension does {name} have?", "extension"),
    ("city", "In which city is {name} based?", "city"),
    ("language", "Which language does {name} speak?", "language"),
    ("team", "Which team does {name} work in?", "team"),
]
PROJECT_QUESTIONS = [
    ("deadline", "What is the deadline of {name}?", "deadline"),
    ("budget-code", "What budget code does {name} have?", "code"),
]


ALL_NAMES = [p["name"] for p in people] + [p["name"] for p in projects]


def task(tid, split, kind, query, name, answer):
    first = name.split(" ", 1)[0]
    return {"id": tid, "split": split, "difficulty": 1, "kind": kind, "query": query,
            "gold": [{"tool": "search_nodes", "args": {"query": name}}], "answer": answer,
            "check": {"answer_contains": [answer]},
            "details": [{"text": " " + name.split(" ", 1)[1], "user_reply": "I mean " + name + ".",
                         "keywords": "who|which|name|surname|full",
                         "ambiguous": sum(n.split(" ", 1)[0] == first for n in ALL_NAMES) > 1}]}


tasks = []
for i, p in enumerate(people):
    split = "test" if i % 4 == 0 else "train"
    for kind, q, field in PERSON_QUESTIONS:
        tasks.append(task(p["name"].lower().replace(" ", "-") + "-" + kind, split, kind, q.format(name=p["name"]), p["name"], p[field]))
for i, p in enumerate(projects):
    split = "test" if i % 4 == 0 else "train"
    for kind, q, field in PROJECT_QUESTIONS:
        tasks.append(task(p["name"].lower().replace(" ", "-") + "-" + kind, split, kind, q.format(name=p["name"]), p["name"], p[field]))
with open(here / "tasks.jsonl", "w") as f:
    for t in tasks:
        f.write(json.dumps(t) + "\n")
print(f"{len(people)} people, {len(projects)} projects, {len(tasks)} tasks "
      f"({sum(t['split'] == 'train' for t in tasks)} train, {sum(t['split'] == 'test' for t in tasks)} test)")
