#!/usr/bin/env python3
"""Labelled memory pairs for the memory hygiene judge: source "life".

A personal assistant's memory of a user and the people around them: family
and friends, home, health, travel, finance, hobbies and collections,
shopping and orders.  Standalone, standard library only, deterministic.

    python3 evaluation/data/source_life.py          # writes life.jsonl
    python3 evaluation/data/source_life.py --check  # also prints samples

Labels follow LABELS.md (same directory).  Every pair is built from a known
(subject, attribute, value) triple, so the relation is decided by
construction:

  duplicate      same subject/attribute/value (paraphrase, cue with same value,
                 task or question restated)
  supersedes     same subject/attribute, value changed and the newer text
                 carries an update cue, or a task/open question is closed
  contradicts    same subject/attribute, different value (or affirmed vs
                 denied), no cue
  complementary  different subject in the same frame, same subject with a
                 different attribute, added detail, an additional value of a
                 many-valued attribute (allergies, languages, instruments)
  unrelated      different topics (also: same person or same word, different
                 topic; chatty "by the way, I just..." turns)
"""

from __future__ import annotations

import functools
import json
import operator
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NotRequired, TypeAlias, TypedDict

SEED = 20240917
SOURCE = "life"
TARGET = 2400
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "life.jsonl")

# ---------------------------------------------------------------------------
# Vocabulary (invented for this source)
# ---------------------------------------------------------------------------

FEM = [
    "Priya",
    "Ana",
    "Hana",
    "Zoe",
    "Lucia",
    "Amara",
    "Ingrid",
    "Farah",
    "Lena",
    "Sofia",
    "Mei",
    "Elif",
    "Aisha",
    "Clara",
    "Esther",
    "Gita",
    "Imani",
    "Keiko",
    "Maya",
    "Nadia",
    "Paloma",
    "Rosa",
    "Tara",
    "Vera",
    "Yara",
    "Astrid",
    "Camille",
    "Freya",
    "Helga",
    "Ines",
    "Leila",
    "Noor",
    "Petra",
    "Saoirse",
    "Uma",
    "Valentina",
    "Wanjiru",
    "Zara",
    "Anouk",
    "Delphine",
    "Fatima",
    "Isla",
    "Mirela",
    "Orla",
    "Rania",
    "Tilde",
    "Ulla",
    "Wiebke",
    "Beatriz",
    "Greta",
]
MASC = [
    "Rupert",
    "Victor",
    "Mateo",
    "Kenji",
    "Tomas",
    "Omar",
    "Nikolai",
    "Diego",
    "Chidi",
    "Jonas",
    "Bruno",
    "Dmitri",
    "Felix",
    "Hugo",
    "Jasper",
    "Luca",
    "Oscar",
    "Quentin",
    "Sanjay",
    "Umar",
    "Xavier",
    "Zane",
    "Bilal",
    "Dev",
    "Emeka",
    "Gustavo",
    "Jamal",
    "Marco",
    "Olu",
    "Rafael",
    "Theo",
    "Yusuf",
    "Bongani",
    "Cyrus",
    "Eitan",
    "Goran",
    "Hamid",
    "Kaveh",
    "Nils",
    "Pavel",
    "Stellan",
    "Vikram",
    "Anders",
    "Idris",
    "Lorenzo",
]
NEUT = ["Kai", "Wen", "Jun", "Lior", "Sasha", "Robin", "Alex", "Noa", "Ari", "Remy"]
ALL_NAMES = FEM + MASC + NEUT

REL_F = ["sister", "aunt", "niece", "daughter", "stepsister"]
REL_M = ["brother", "uncle", "nephew", "son", "stepbrother"]
REL_N = ["cousin", "best friend", "friend", "neighbour", "flatmate", "colleague", "old school friend", "godchild"]
ROLES = ["mom", "dad", "grandma", "grandpa", "partner", "mother-in-law", "father-in-law"]

PET_NAMES = [
    "Biscuit",
    "Miso",
    "Pepper",
    "Luna",
    "Mochi",
    "Ziggy",
    "Pickles",
    "Nacho",
    "Olive",
    "Juniper",
    "Tofu",
    "Waffles",
    "Bramble",
    "Pixel",
    "Rocket",
    "Sesame",
    "Clementine",
    "Bean",
    "Dumpling",
    "Marlowe",
    "Fig",
    "Noodle",
    "Basil",
    "Custard",
]
SPECIES = ["dog", "cat", "rabbit"]

CITIES = [
    "Oslo",
    "Bergen",
    "Porto",
    "Lisbon",
    "Valencia",
    "Lyon",
    "Ghent",
    "Kraków",
    "Tallinn",
    "Tartu",
    "Leeds",
    "Glasgow",
    "Cork",
    "Galway",
    "Utrecht",
    "Rotterdam",
    "Aarhus",
    "Malmö",
    "Turin",
    "Bologna",
    "Seville",
    "Graz",
    "Ljubljana",
    "Zagreb",
    "Vilnius",
    "Riga",
    "Bordeaux",
    "Nantes",
    "Basel",
    "Lausanne",
    "Kyoto",
    "Osaka",
    "Busan",
    "Hanoi",
    "Montreal",
    "Halifax",
    "Austin",
    "Denver",
    "Tucson",
    "Wellington",
    "Hobart",
    "Cape Town",
    "Nairobi",
    "Accra",
    "Lima",
    "Cusco",
    "Oaxaca",
    "Mendoza",
]
COUNTRIES = [
    ("Canada", "Canadian"),
    ("Japan", "Japanese"),
    ("Australia", "Australian"),
    ("India", "Indian"),
    ("Brazil", "Brazilian"),
    ("Kenya", "Kenyan"),
    ("Vietnam", "Vietnamese"),
    ("the US", "US"),
    ("South Korea", "South Korean"),
    ("Turkey", "Turkish"),
    ("Indonesia", "Indonesian"),
]
COMPANIES = [
    "Brightline Foods",
    "Halden & Rowe",
    "Meridian Health",
    "Tallow Books",
    "Northgate Logistics",
    "Pinecrest School",
    "Saltmarsh Architects",
    "Juniper Dental",
    "Ostara Energy",
    "Fennick Bakery",
    "Quillon Media",
    "Redwater Clinic",
    "Marigold Hotels",
    "Lumen Opticians",
    "Greyfield Council",
    "Copperleaf Gardens",
    "Bellweather Insurance",
    "Ashgrove Library",
]
CUISINES = [
    "Thai",
    "Peruvian",
    "Ethiopian",
    "Georgian",
    "Korean",
    "Lebanese",
    "Sichuan",
    "Vietnamese",
    "Mexican",
    "Greek",
    "Turkish",
    "Sri Lankan",
    "Basque",
    "Japanese",
    "Moroccan",
    "Neapolitan",
    "Persian",
    "Indonesian",
    "Malaysian",
    "Portuguese",
]
FOODS = [
    "lasagne",
    "pho",
    "ramen",
    "dumplings",
    "paella",
    "falafel",
    "shakshuka",
    "pierogi",
    "tacos al pastor",
    "mushroom risotto",
    "chicken katsu",
    "bibimbap",
    "moussaka",
    "jollof rice",
    "pad see ew",
    "khachapuri",
    "butter chicken",
    "fish and chips",
    "gnocchi",
    "empanadas",
]
COLOURS = [
    "green",
    "teal",
    "mustard yellow",
    "navy blue",
    "burgundy",
    "lilac",
    "coral",
    "forest green",
    "sky blue",
    "charcoal grey",
    "orange",
    "plum",
    "turquoise",
    "crimson",
    "sage green",
    "silver",
    "white",
    "red",
]
COFFEES = [
    "oat flat white",
    "double espresso",
    "cortado",
    "iced latte",
    "black americano",
    "cappuccino with cinnamon",
    "chai latte",
    "decaf cappuccino",
    "matcha latte",
    "mocha",
    "macchiato",
]
LANGUAGES = [
    "Portuguese",
    "Greek",
    "Swahili",
    "Japanese",
    "Polish",
    "Tagalog",
    "Dutch",
    "Arabic",
    "Hindi",
    "Catalan",
    "Norwegian",
    "Welsh",
    "Korean",
]
INSTRUMENTS = ["cello", "piano", "guitar", "violin", "drums", "ukulele", "saxophone", "flute", "harp", "accordion"]
CARS = [
    "Volvo XC60",
    "Skoda Octavia",
    "Honda Jazz",
    "Toyota Yaris",
    "Kia Niro",
    "VW Golf",
    "Renault Clio",
    "Mazda MX-5",
    "Tesla Model 3",
    "Fiat Panda",
    "Kestrel Aria",
    "Volant Meridian",
    "Norda Fjell",
    "Orca City",
    "Halcyon Tourer",
    "Brio Hatch",
    "Lumo E3",
    "Pikes Ranger",
    "Ford Focus",
    "Subaru Outback",
    "Peugeot 208",
    "Nissan Leaf",
    "Mini Cooper",
    "Dacia Duster",
]
DOCTORS = [
    "Dr. Lindqvist",
    "Dr. Amari",
    "Dr. Okonkwo",
    "Dr. Haddad",
    "Dr. Ferreira",
    "Dr. Novak",
    "Dr. Castellano",
    "Dr. Brennan",
    "Dr. Sato",
    "Dr. Mbeki",
    "Dr. Rahimi",
    "Dr. Kowalczyk",
    "Dr. Abebe",
    "Dr. Moreau",
    "Dr. Patel",
    "Dr. Vance",
    "Dr. Ilunga",
    "Dr. Sorensen",
]
MEDS = {  # medication -> (unit, doses)
    "atorvastatin": ("mg", [10, 20, 40, 80]),
    "sertraline": ("mg", [25, 50, 100, 150]),
    "levothyroxine": ("mcg", [25, 50, 75, 100, 125]),
    "metformin": ("mg", [500, 850, 1000, 1500]),
    "lisinopril": ("mg", [5, 10, 20, 40]),
    "omeprazole": ("mg", [10, 20, 40]),
    "amlodipine": ("mg", [5, 10]),
    "propranolol": ("mg", [10, 40, 80]),
    "vitamin D": ("IU", [1000, 2000, 4000]),
}
MED_NAMES = list(MEDS)
ALLERGENS = [
    ("peanuts", "peanut"),
    ("shellfish", "shellfish"),
    ("penicillin", "penicillin"),
    ("cats", "cat"),
    ("pollen", "pollen"),
    ("sesame", "sesame"),
    ("kiwi", "kiwi"),
    ("latex", "latex"),
    ("bee stings", "bee sting"),
    ("tree nuts", "tree nut"),
    ("eggs", "egg"),
    ("dust mites", "dust mite"),
    ("mustard", "mustard"),
]
BANKS = [
    "Northwind Bank",
    "Harbor Credit Union",
    "Fjordbank",
    "Solace Savings",
    "Brightwater Bank",
    "Alder & Finch",
    "Cobalt Bank",
    "Tidewater Building Society",
    "Lumen Bank",
    "Kite Mutual",
]
INSURERS = [
    "Harbor Mutual",
    "Aegis Home",
    "Bluefin Insurance",
    "Steadfast Cover",
    "Orchard Assurance",
    "Keel Insurance",
    "Mosaic Mutual",
    "Lantern Cover",
]
ISPS = ["Fibrelane", "Wavecrest", "Beacon Broadband", "Nimbus Fibre", "Hearthnet", "Larkspur Telecom"]
APPLIANCES = ["washing machine", "dishwasher", "fridge", "oven", "boiler", "tumble dryer", "freezer", "hob"]
APPL_BRANDS = ["Kelvo", "Frostline", "Bruna", "Alpenwerk", "Hestia", "Nordhaus", "Corvo", "Elmstead", "Ardent"]
SERVICES = [
    "Streamly",
    "CineBox",
    "Tunewave",
    "PageTurn",
    "FitLoop",
    "Boxly",
    "CloudVault",
    "NewsDaily",
    "Gamebay",
    "Podhaven",
    "Snapgrocer",
    "Melodeon",
]
BILLS = ["electricity", "water", "gas", "internet", "phone", "council tax"]
POLICIES = [
    "car insurance",
    "home insurance",
    "travel insurance",
    "pet insurance",
    "contents insurance",
    "phone insurance",
]
BUDGET_CATS = ["groceries", "eating out", "clothes", "fuel", "gifts", "takeaways", "household bits", "books"]
FUNDS = ["house deposit", "Japan trip", "road bike", "emergency fund", "wedding", "living-room sofa", "kitchen refit"]
HOTELS = [
    "Hotel Marisol",
    "The Lantern Inn",
    "Casa Azul",
    "Hotel Nordlys",
    "The Quayside",
    "Pension Linde",
    "Hotel Aurelia",
    "The Ivy Court",
    "Hostal Sol",
    "Hotel Sirocco",
    "Hotel Brisa",
    "Albergo Stella",
    "The Cobbler's Rest",
    "Hotel Vinter",
    "Casa Limão",
    "Hotel Kvist",
]
BOOKS = [
    "'The Salt Road'",
    "'Winter Orchard'",
    "'A Map of Small Hours'",
    "'The Glass Ferry'",
    "'Nine Lanterns'",
    "'The Cartographer's Daughter'",
    "'Harbour Lights'",
    "'The Quiet Tenant'",
    "'Ash and Honey'",
    "'The Long Field'",
    "'Paper Moons'",
    "'The Last Orchard'",
    "'Tidewater'",
    "'The Copper Bell'",
    "'A Season of Kites'",
    "'The Weaver's Almanac'",
    "'North of Nowhere'",
    "'The Lemon Grove'",
    "'Small Mercies'",
    "'The Ferryman's Wife'",
]
SHOPS = [
    "Kestrel Home",
    "Pebble & Pine",
    "Urban Larder",
    "Northbound Outdoor",
    "Velo Depot",
    "Bookhaus",
    "Lumiere Lighting",
    "Tidy Nest",
    "Cask & Crate",
    "Greenleaf Garden Centre",
    "Moss & Loom",
]
ITEMS = [
    "desk lamp",
    "rain jacket",
    "blender",
    "pair of running shoes",
    "bookshelf",
    "air fryer",
    "duvet cover",
    "bike helmet",
    "kettle",
    "rug",
    "coffee grinder",
    "hiking backpack",
    "standing mirror",
    "toaster",
    "set of pans",
]
LANDLORDS = [
    "Mr. Okafor",
    "Mrs. Delacroix",
    "Ms. Brandt",
    "Mr. Halloran",
    "Mrs. Yilmaz",
    "Mr. Szabo",
    "Ms. Achterberg",
    "Mr. Teixeira",
    "Mrs. Lindgren",
    "Mr. Achebe",
]
STREETS = [
    "Elm Row",
    "Larkspur Lane",
    "Quarry Street",
    "Bellfield Road",
    "Harbour View",
    "Tannery Close",
    "Mill Lane",
    "Orchard Terrace",
    "Wren Street",
    "Cedar Court",
    "Foundry Walk",
    "Kingfisher Way",
    "Ropewalk",
    "Chapel Hill",
]
VETS = [
    "Riverside Vets",
    "Oakmoor Animal Clinic",
    "Pawsworth Veterinary",
    "Greenway Vets",
    "the Ark Veterinary Centre",
    "Hollybank Vets",
    "Fernhill Pet Clinic",
]
GROOMERS = ["Fluff & Fold", "the Grooming Shed", "Suds & Scissors", "Pampered Paws", "Tidy Tails"]
PET_FOODS = [
    "Hearth & Hound",
    "Wildpaw",
    "Meadowbite",
    "Purrfect Harvest",
    "Northstar Pet",
    "Kibbleworks",
    "Tailor's Table",
]
GIFTS = [
    "scarf",
    "pottery mug",
    "board game",
    "cookbook",
    "plant",
    "pair of earrings",
    "watercolour set",
    "candle",
    "jigsaw puzzle",
    "bottle of olive oil",
    "photo book",
]
RESTAURANTS = [
    "Bistro Lune",
    "the Copper Pot",
    "Casa Nonna",
    "Saffron House",
    "the Fig Tree",
    "Kaiseki Hana",
    "Mercado 19",
    "the Olive Room",
    "Noodle Yard",
    "Le Petit Phare",
]
CLASSES = [
    "pottery",
    "yoga",
    "Spanish",
    "salsa",
    "life drawing",
    "swimming",
    "climbing",
    "cooking",
    "Pilates",
    "Italian",
]
COLLECTIONS = [
    ("postcards", "postcard"),
    ("stamps", "stamp"),
    ("vinyl records", "vinyl"),
    ("enamel pins", "pin"),
    ("fountain pens", "fountain pen"),
    ("board games", "board game"),
    ("houseplants", "houseplant"),
    ("comic books", "comic"),
    ("snow globes", "snow globe"),
    ("tea tins", "tea tin"),
    ("film cameras", "camera"),
]
APPT_TYPES = [
    "dentist appointment",
    "eye test",
    "haircut",
    "physio session",
    "blood test",
    "vaccination appointment",
    "massage",
    "dermatology appointment",
]
PLANTS = ["tomato plants", "chilli plants", "courgette plants", "strawberry plants", "sunflowers", "bean plants"]
BINS = ["recycling", "general waste", "garden waste", "glass recycling", "food waste"]
RUN_DISTS = ["5K", "10K", "half marathon"]
MED_TIMES = ["in the morning", "in the evening", "at bedtime", "with lunch"]
WIFI_A = ["otter", "heron", "maple", "copper", "velvet", "cobalt", "juniper", "pebble", "falcon", "cedar"]
WIFI_B = ["lamp", "bell", "river", "kite", "stone", "lantern", "meadow", "harbour", "spoon", "comet"]

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WHEN_PAST = [
    "March 1",
    "this week",
    "last Monday",
    "the start of the month",
    "today",
    "June 1",
    "this month",
    "the 1st",
    "yesterday",
]
WHEN_FUT = ["next week", "next month", "Monday", "the 1st", "July", "the new year", "next term"]

ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def words(n: int) -> str:
    if n < 20:
        return ONES[n]
    t, o = divmod(n, 10)
    return TENS[t] + ("" if o == 0 else "-" + ONES[o])


def ordinal(n: int) -> str:
    suf = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suf}"


def article(text: str) -> str:
    return "an" if text[:1].lower() in "aeiou" else "a"


def money_text(amount: float) -> str:
    s = f"{amount:,.2f}" if abs(amount - round(amount)) > 1e-09 else f"{round(amount):,}"
    return s


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


class Val:
    """A value with several surface renderings of the same canonical value."""

    def __init__(
        self,
        canon: Any,
        std: list[str],
        bare: list[str] | None = None,
        num: float | None = None,
        alt: str | None = None,
    ) -> None:
        self.canon = canon  # str, number or tuple: two values are the same value when their canons are equal
        self.std = list(std)
        self.bare = list(bare) if bare else list(std)
        self.num = num
        self.alt = alt or self.std[0]


class ValueType:
    """Draws values of an attribute; `tag` names the kind of value (two attributes with the same tag
    can share a value), and the numeric families ("time", "count") carry the range `lo`-`hi` they draw from."""

    def __init__(
        self,
        gen: Callable[[random.Random, Subj], Val],
        tag: str,
        fam: str | None = None,
        lo: int = 0,
        hi: int = 0,
    ) -> None:
        self.gen, self.tag, self.fam, self.lo, self.hi = gen, tag, fam, lo, hi

    def __call__(self, r: random.Random, s: Subj) -> Val:
        return self.gen(r, s)


def tagged(tag: str) -> Callable[[Callable[[random.Random, Subj], Val]], ValueType]:
    def wrap(gen: Callable[[random.Random, Subj], Val]) -> ValueType:
        return ValueType(gen, tag)

    return wrap


def v_choice(pool: list[str]) -> ValueType:
    def f(r: random.Random, s: Subj) -> Val:
        x = r.choice(pool)
        return Val(x, [x])

    return ValueType(f, "choice:" + pool[0])


@tagged("city")
def v_city(r: random.Random, s: Subj) -> Val:
    c = r.choice(CITIES)
    return Val(c, [c])


@tagged("date")
def v_date(r: random.Random, s: Subj) -> Val:
    m = r.randrange(12)
    d = r.randint(1, 28)
    return Val((m, d), [f"{MONTHS[m]} {d}", f"{d} {MONTHS[m]}", f"the {ordinal(d)} of {MONTHS[m]}"], num=m * 31 + d)


@tagged("dateyear")
def v_dateyear(r: random.Random, s: Subj) -> Val:
    y = r.randint(2025, 2030)
    m = r.randrange(12)
    d = r.randint(1, 28)
    return Val((y, m, d), [f"{MONTHS[m]} {d}, {y}", f"{d} {MONTHS[m]} {y}"], num=y * 400 + m * 31 + d)


@tagged("monthyear")
def v_monthyear(r: random.Random, s: Subj) -> Val:
    y = r.randint(2025, 2036)
    m = r.randrange(12)
    return Val(
        (y, m),
        [f"{MONTHS[m]} {y}", f"{MONTHS[m][:3]} {y}"] if len(MONTHS[m]) > 4 else [f"{MONTHS[m]} {y}"],
        num=y * 12 + m,
    )


def _time_renders(h: int, mi: int) -> list[str]:
    h12 = h % 12 or 12
    ampm = "am" if h < 12 else "pm"
    short12 = f"{h12}:{mi:02d} {ampm}" if mi else f"{h12} {ampm}"
    return [f"{h:02d}:{mi:02d}", short12]


@tagged("dtime")
def v_dtime(r: random.Random, s: Subj) -> Val:
    day = r.choice(WEEKDAYS[:6])
    h = r.randint(8, 17)
    mi = r.choice([0, 0, 15, 30, 30, 45])
    t = _time_renders(h, mi)
    return Val(
        (day, h, mi),
        [f"{day} at {t[0]}", f"{day} at {t[1]}", f"{day}, {t[1]}"],
        num=WEEKDAYS.index(day) * 2000 + h * 60 + mi,
    )


def v_time(lo: int, hi: int, tag: str) -> ValueType:
    def f(r: random.Random, s: Subj) -> Val:
        h = r.randint(lo, hi)
        mi = r.choice([0, 5, 10, 15, 20, 30, 40, 45, 50, 55])
        return Val((h, mi), _time_renders(h, mi), num=h * 60 + mi)

    return ValueType(f, tag, "time", lo, hi)


@tagged("weekly")
def v_weekly(r: random.Random, s: Subj) -> Val:
    d = r.choice(WEEKDAYS)
    return Val(d, [f"on {d}s", f"every {d}"], bare=[f"{d}s"], num=WEEKDAYS.index(d))


@tagged("weekset")
def v_weekset(r: random.Random, s: Subj) -> Val:
    a, b = sorted(r.sample(range(7), 2))
    da, db = WEEKDAYS[a], WEEKDAYS[b]
    return Val((a, b), [f"on {da}s and {db}s", f"every {da} and {db}"], bare=[f"{da}s and {db}s"])


@tagged("dom")
def v_dom(r: random.Random, s: Subj) -> Val:
    d = r.randint(1, 28)
    return Val(d, [ordinal(d)], num=d)


@tagged("delivery")
def v_delivery(r: random.Random, s: Subj) -> Val:
    # one order is always described the same way (weekday or date), so two values of
    # the same order can never be the same day written differently
    if int(s.fields.get("N", "0")) % 5 < 3:
        d = r.choice(WEEKDAYS[:6])
        return Val(("wd", d), [f"on {d}", f"on {d}"], bare=[d])
    m = r.randrange(12)
    dd = r.randint(1, 28)
    return Val(
        ("dt", m, dd), [f"on {MONTHS[m]} {dd}", f"on {dd} {MONTHS[m]}"], bare=[f"{MONTHS[m]} {dd}", f"{dd} {MONTHS[m]}"]
    )


def v_money(lo: int, hi: int, step: int, tag: str, cents: bool = False) -> ValueType:
    def f(r: random.Random, s: Subj) -> Val:
        amt = r.randrange(lo, hi + 1) + 0.99 if cents else r.randrange(lo, hi + 1, step)
        t = money_text(amt)
        std = [f"€{t}", f"{t} euros"]
        if not cents and amt >= 10000 and amt % 1000 == 0:
            std.append(f"€{int(amt // 1000)}k")
        return Val(amt, std, num=amt)

    return ValueType(f, tag)


def v_count(lo: int, hi: int, tag: str) -> ValueType:
    def f(r: random.Random, s: Subj) -> Val:
        n = r.randint(lo, hi)
        std = [str(n)]
        if n < 100:
            std.append(words(n))
        return Val(n, std, num=n)

    return ValueType(f, tag, "count", lo, hi)


@tagged("kg-person")
def v_kg_person(r: random.Random, s: Subj) -> Val:
    n = r.randint(55, 110)
    return Val(n, [f"{n} kg", f"{n} kilos" if n != 1 else "1 kilo"], num=n)


@tagged("kg-pet")
def v_kg_pet(r: random.Random, s: Subj) -> Val:
    sp = s.fields.get("SPECIES", "dog")
    if sp == "dog":
        n = float(r.randint(6, 40))
    elif sp == "cat":
        n = r.choice([3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7])
    else:
        n = r.choice([1, 1.5, 2, 2.5, 3])
    t = f"{n:g}"
    return Val(n, [f"{t} kg", f"{t} kilos" if n != 1 else "1 kilo"], num=n)


@tagged("runtime")
def v_runtime(r: random.Random, s: Subj) -> Val:
    dist = s.fields.get("DIST", "5K")
    lo, hi = {"5K": (19 * 60, 34 * 60), "10K": (40 * 60, 70 * 60), "half marathon": (95 * 60, 150 * 60)}[dist]
    secs = r.randrange(lo, hi, 5)
    mm, ss = divmod(secs, 60)
    if mm >= 60:
        hh, mm = divmod(mm, 60)
        std = [f"{hh}:{mm:02d}:{ss:02d}", f"{hh}h {mm:02d}m {ss:02d}s"]
    else:
        std = [f"{mm}:{ss:02d}", f"{mm} minutes {ss} seconds" if ss else f"{mm} minutes flat"]
    return Val(secs, std, num=secs)


@tagged("dose")
def v_dose(r: random.Random, s: Subj) -> Val:
    med = s.fields["MED"]
    unit, doses = MEDS[med]
    d = r.choice(doses)
    t = f"{d:,}"
    if unit == "mg":
        std = [f"{t} mg", f"{t} milligrams"]
    elif unit == "mcg":
        std = [f"{t} mcg", f"{t} micrograms"]
    else:
        std = [f"{t} IU"]
    return Val(d, std, num=d)


@tagged("calories")
def v_calories(r: random.Random, s: Subj) -> Val:
    n = r.randrange(1600, 2700, 50)
    return Val(n, [f"{n:,} calories", f"{n:,} kcal"], num=n)


@tagged("address")
def v_address(r: random.Random, s: Subj) -> Val:
    n = r.randint(1, 120)
    suffix = r.choice(["", "", "", "B", "A"])
    st = r.choice(STREETS)
    x = f"{n}{suffix} {st}"
    return Val(x, [x])


@tagged("wifi")
def v_wifi(r: random.Random, s: Subj) -> Val:
    x = f"{r.choice(WIFI_A)}-{r.choice(WIFI_B)}-{r.randint(10, 99)}"
    return Val(x, [x])


@tagged("name")
def v_person_name(r: random.Random, s: Subj) -> Val:
    own = s.owner.name if s.owner is not None else None
    while True:
        n = r.choice(ALL_NAMES)
        if n != own:
            return Val(n, [n])


@tagged("allergen")
def v_allergen(r: random.Random, s: Subj) -> Val:
    pl, sg = r.choice(ALLERGENS)
    return Val(pl, [pl], alt=sg)


@tagged("applbrand")
def v_brand(r: random.Random, s: Subj) -> Val:
    b = r.choice(APPL_BRANDS)
    return Val(b, [b])


# ---------------------------------------------------------------------------
# Owners and subjects
# ---------------------------------------------------------------------------


# how a subject is written: the {S} {P} {O} placeholders (subject, possessive, object) and grammatical person
Form = TypedDict("Form", {"S": str, "P": str, "O": str, "person": int})  # noqa: UP013 - class form needs an `O` field (E741)


class Owner:
    def __init__(self, kind: str, name: str | None = None, rel: str | None = None) -> None:
        self.kind, self.name, self.rel = kind, name, rel
        if kind == "self":
            self.id = "self"
            self.forms: list[Form] = [{"S": "I", "P": "my", "O": "me", "person": 1}]
        elif kind == "named":
            assert name is not None
            self.id = "n:" + name
            self.forms = [{"S": name, "P": name + "'s", "O": name, "person": 3}]
        elif kind == "relnamed":
            assert name is not None
            self.id = "n:" + name
            full = f"my {rel} {name}"
            self.forms = [
                {"S": full, "P": full + "'s", "O": full, "person": 3},
                {"S": name, "P": name + "'s", "O": name, "person": 3},
            ]
        else:  # role
            assert rel is not None
            self.id = "r:" + rel
            full = f"my {rel}"
            self.forms = [{"S": full, "P": full + "'s", "O": full, "person": 3}]


def rand_owner(r: random.Random, policy: str = "any", noroles: bool = False) -> Owner:  # noqa: PLR0911 - one per owner kind
    if policy == "self":
        return Owner("self")
    while True:
        x = r.random()
        if policy == "any" and x < 0.36:
            return Owner("self")
        x = r.random()
        if x < 0.42:
            return Owner("named", name=r.choice(ALL_NAMES))
        if x < 0.86:
            g = r.random()
            if g < 0.4:
                return Owner("relnamed", name=r.choice(FEM), rel=r.choice(REL_F))
            if g < 0.75:
                return Owner("relnamed", name=r.choice(MASC), rel=r.choice(REL_M))
            return Owner("relnamed", name=r.choice(ALL_NAMES), rel=r.choice(REL_N))
        if noroles:
            continue
        return Owner("role", rel=r.choice(ROLES))


def owners_compatible(a: Owner, b: Owner) -> bool:
    """True when the two owners are clearly different people."""
    if a.id == b.id:
        return False
    if a.name and b.name and a.name == b.name:
        return False
    # "my partner" could be "Priya": a role and a bare name are never told apart
    return {a.kind, b.kind} != {"role", "named"}


def other_owner(r: random.Random, o: Owner, policy: str = "any", noroles: bool = False) -> Owner:
    for _ in range(200):
        o2 = rand_owner(r, policy, noroles)
        if owners_compatible(o, o2):
            return o2
    raise RuntimeError("no compatible owner")


class KindSpec(TypedDict):
    owner: bool  # does the subject belong to someone
    fields: list[str]  # the fields that identify the subject
    clash: NotRequired[bool]  # another subject of the kind may not share the value
    vary_owner: NotRequired[bool]  # may a different subject be made by changing the owner


# subject kinds: which fields identify the subject, how owners are chosen, forms
KINDS: dict[str, KindSpec] = {
    "person": {"owner": True, "fields": []},
    "petowner": {"owner": True, "fields": ["SPECIES"], "clash": True},
    "pet": {"owner": True, "fields": ["PET", "SPECIES"], "vary_owner": False},
    "appt": {"owner": True, "fields": ["APPT"], "clash": True},
    "flight": {"owner": True, "fields": ["CITY"], "clash": True},
    "visa": {"owner": True, "fields": ["COUNTRY"]},
    "med": {"owner": True, "fields": ["MED"]},
    "run": {"owner": True, "fields": ["DIST"]},
    "cls": {"owner": True, "fields": ["CLASS"]},
    "instr": {"owner": True, "fields": ["INSTR"]},
    "coll": {"owner": True, "fields": ["ITEM"]},
    "trip": {"owner": False, "fields": ["CITY"], "clash": True},
    "order": {"owner": False, "fields": ["N"]},
    "service": {"owner": False, "fields": ["SVC"]},
    "bill": {"owner": False, "fields": ["BILL"]},
    "policy": {"owner": False, "fields": ["POL"]},
    "budget": {"owner": False, "fields": ["CAT"]},
    "fund": {"owner": False, "fields": ["GOAL"]},
    "appl": {"owner": False, "fields": ["APPL"]},
    "waste": {"owner": False, "fields": ["BIN"]},
    "plant": {"owner": False, "fields": ["PLANT"]},
    "bookclub": {"owner": False, "fields": ["MONTH"], "clash": True},
}


def gen_field(r: random.Random, name: str, fields: dict[str, str]) -> str:  # noqa: PLR0911, PLR0912 - one vocabulary per field
    if name == "SPECIES":
        return r.choice(SPECIES)
    if name == "PET":
        return r.choice(PET_NAMES)
    if name == "APPT":
        return r.choice(APPT_TYPES)
    if name == "CITY":
        return r.choice(CITIES)
    if name == "COUNTRY":
        c = r.choice(COUNTRIES)
        fields["CADJ"] = c[1]
        return c[0]
    if name == "MED":
        return r.choice(MED_NAMES)
    if name == "DIST":
        return r.choice(RUN_DISTS)
    if name == "CLASS":
        return r.choice(CLASSES)
    if name == "INSTR":
        return r.choice(INSTRUMENTS)
    if name == "ITEM":
        c = r.choice(COLLECTIONS)
        fields["ITEM_SG"] = c[1]
        return c[0]
    if name == "N":
        fields["OITEM"] = r.choice(ITEMS)
        fields["SHOP"] = r.choice(SHOPS)
        return str(r.randint(10000, 99999))
    if name == "SVC":
        return r.choice(SERVICES)
    if name == "BILL":
        return r.choice(BILLS)
    if name == "POL":
        return r.choice(POLICIES)
    if name == "CAT":
        return r.choice(BUDGET_CATS)
    if name == "GOAL":
        return r.choice(FUNDS)
    if name == "APPL":
        return r.choice(APPLIANCES)
    if name == "BIN":
        return r.choice(BINS)
    if name == "PLANT":
        return r.choice(PLANTS)
    if name == "MONTH":
        return r.choice(MONTHS)
    raise KeyError(name)


class Subj:
    def __init__(self, kind: str, owner: Owner, fields: Mapping[str, str], r: random.Random) -> None:
        self.kind, self.owner, self.fields = kind, owner, dict(fields)
        spec = KINDS[kind]
        self.key = (kind, owner.id if owner else "-", tuple(self.fields[f] for f in spec["fields"]))
        self.forms = self._forms(r)

    def _forms(self, r: random.Random) -> list[Form]:  # noqa: PLR0911 - one per subject kind
        o, f, k = self.owner, self.fields, self.kind
        if k in ("person", "petowner", "med", "run", "cls", "instr", "coll", "visa"):
            return [x.copy() for x in o.forms]
        if k == "pet":
            op = f.get("OUR", "my") if o.kind == "self" else o.forms[0]["P"]
            full = f"{op} {f['SPECIES']} {f['PET']}"
            return [
                {"S": full, "P": full + "'s", "O": full, "person": 3},
                {"S": f["PET"], "P": f["PET"] + "'s", "O": f["PET"], "person": 3},
            ]
        if k == "appt":
            t = f["APPT"]
            if o.kind == "self":
                return [
                    {"S": f"my {t}", "P": "my", "O": "me", "person": 3},
                    {"S": f"the {t}", "P": "my", "O": "me", "person": 3},
                ]
            return [{"S": f"{x['P']} {t}", "P": x["P"], "O": x["O"], "person": 3} for x in o.forms]
        if k == "flight":
            c = f["CITY"]
            if o.kind == "self":
                return [
                    {"S": f"my flight to {c}", "P": "my", "O": "me", "person": 3},
                    {"S": f"the {c} flight", "P": "my", "O": "me", "person": 3},
                ]
            return [{"S": f"{x['P']} flight to {c}", "P": x["P"], "O": x["O"], "person": 3} for x in o.forms]
        if k == "trip":
            c = f["CITY"]
            return [
                {"S": f"our trip to {c}", "P": "our", "O": "us", "person": 3},
                {"S": f"the {c} trip", "P": "our", "O": "us", "person": 3},
            ]
        if k == "order":
            n = f["N"]
            return [
                {"S": f"order #{n}", "P": "my", "O": "me", "person": 3},
                {"S": f"my order #{n}", "P": "my", "O": "me", "person": 3},
            ]
        return [{"S": "I", "P": "my", "O": "me", "person": 1}]


def make_subject(
    kind: str,
    r: random.Random,
    policy: str = "any",
    owner: Owner | None = None,
    noroles: bool = False,
    fields: Mapping[str, str] | None = None,
) -> Subj:
    spec = KINDS[kind]
    if spec["owner"]:
        if owner is None:
            owner = rand_owner(r, policy, noroles)
    else:
        owner = Owner("self")
    fl = dict(fields or {})
    for name in spec["fields"]:
        if name not in fl:
            fl[name] = gen_field(r, name, fl)
    if kind == "pet" and "OUR" not in fl:
        fl["OUR"] = r.choice(["my", "our"])
    return Subj(kind, owner, fl, r)


def vary_subject(s: Subj, r: random.Random, policy: str = "any", noroles: bool = False) -> tuple[Subj, str]:
    """A clearly different subject of the same kind."""
    spec = KINDS[s.kind]
    opts = []
    if spec["owner"] and spec.get("vary_owner", True) and policy != "self":
        opts.append("owner")
    opts += spec["fields"][:1]
    for _ in range(200):
        how = r.choice(opts)
        if how == "owner":
            o2 = other_owner(r, s.owner, policy, noroles)
            s2 = Subj(s.kind, o2, s.fields, r)
        else:
            fl = dict(s.fields.items())
            # regenerate the identifying field (and its companions)
            for dep in ("CADJ", "ITEM_SG", "OITEM", "SHOP"):
                fl.pop(dep, None)
            fl[how] = gen_field(r, how, fl)
            for k, v in s.fields.items():
                fl.setdefault(k, v)
            s2 = Subj(s.kind, s.owner, fl, r)
        if s2.key != s.key:
            if s.kind == "pet" and s2.fields["PET"] == s.fields["PET"]:
                continue
            return s2, how
    raise RuntimeError("cannot vary subject")


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

VERB_RE = re.compile(r"\[([^|\]]*)\|([^\]]*)\]")
PH_RE = re.compile(r"\{([A-Za-z_0-9]+)\}")


def cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def render(
    tmpl: str,
    subj: Subj | None,
    form: int,
    r: random.Random,
    val: Val | None = None,
    old: Val | None = None,
    extra: Mapping[str, Any] | None = None,
) -> str:
    """Render a template to a raw string (first letter not forced upper)."""
    m: dict[str, object] = dict(subj.fields) if subj is not None else {}
    if subj is not None:
        m.update({k: v for k, v in subj.forms[form].items() if k != "person"})
        person = subj.forms[form]["person"]
    else:
        person = 3
    if extra:
        m.update(extra)
        person = extra.get("person", person)
    if val is not None:
        v = r.choice(val.std)
        m["V"], m["Vb"] = v, r.choice(val.bare)
        m["aV"] = f"{article(v)} {v}"
        m["Va"] = val.alt
        m["aVa"] = f"{article(val.alt)} {val.alt}"
    if old is not None:
        v = r.choice(old.std)
        m["OLD"], m["OLDb"] = v, r.choice(old.bare)
        m["aOLD"] = f"{article(v)} {v}"
    m.setdefault("WHEN", r.choice(WHEN_PAST))
    m.setdefault("WHEN2", r.choice(WHEN_FUT))
    out = VERB_RE.sub(lambda mm: mm.group(1) if person == 1 else mm.group(2), tmpl)
    out = PH_RE.sub(lambda mm: str(m[mm.group(1)]), out)
    return out


def norm(s: str) -> str:
    s = s.lower()
    s = re.sub(r"[^\w\s]", " ", s)
    return " ".join(s.split())


# ---------------------------------------------------------------------------
# Attributes: (subject kind, value type, templates)
#
# Template syntax: {S} subject, {P} possessive, {O} object, {V}/{Vb}/{aV}
# value (standard / bare / with article), {OLD}/{OLDb}/{aOLD} previous value,
# [first|third] verb form chosen by grammatical person.  Cued templates may
# start with markers: "!" change-implying (never used with the same value),
# ">" needs a larger new value, "<" needs a smaller new value.  Templates
# start lower-case unless they start with a name; capitalisation is applied
# at the end so the same raw text can follow a connector in a long turn.
# ---------------------------------------------------------------------------

PREFIXES = {
    "state": [("update: {B}", True), ("as of {WHEN}, {b}", True), ("quick update: {B}", True)],
    "sched": [("update: {B}", True), ("change of plan: {B}", False), ("correction: {B}", False)],
    "price": [("as of {WHEN}, {b}", True), ("!starting {WHEN2}, {b}", False), ("update: {B}", True)],
    "habit": [
        ("these days, {b}", True),
        ("going forward, {b}", True),
        ("from now on, {b}", True),
        ("!starting {WHEN2}, {b}", False),
    ],
    "pref": [("these days, {b}", True), ("update: {B}", True)],
    "fixed": [("correction: {B}", False), ("I had that wrong earlier. {B}", False)],
}


class AttrSpec(TypedDict):
    name: str
    topic: str
    kind: str  # subject kind (KINDS)
    vt: ValueType
    base: list[str]
    cued: list[str]
    detail: list[str]
    addl: list[str]
    k: str  # kind of memory (fact, preference, ...)
    change: str  # "all", "cued" or "none"
    prefix: str | None  # PREFIXES key
    owners: str
    noroles: bool


ATTRS: dict[str, AttrSpec] = {}


def A(
    name: str,
    topic: str,
    kind: str,
    vt: ValueType,
    base: Iterable[str],
    cued: Iterable[str] = (),
    detail: Iterable[str] = (),
    addl: Iterable[str] = (),
    k: str = "fact",
    change: str = "all",
    prefix: str | None = "state",
    owners: str = "any",
    noroles: bool = False,
) -> None:
    ATTRS[name] = {
        "name": name,
        "topic": topic,
        "kind": kind,
        "vt": vt,
        "base": list(base),
        "cued": list(cued),
        "detail": list(detail),
        "addl": list(addl),
        "k": k,
        "change": change,
        "prefix": prefix,
        "owners": owners,
        "noroles": noroles,
    }


# --- family and friends ----------------------------------------------------
A(
    "lives_in",
    "residence",
    "person",
    v_city,
    [
        "{S} [live|lives] in {V}.",
        "{S} [am|is] based in {V}.",
        "home for {O} is {V}.",
        "{P} home is in {V}.",
        "{S} [live|lives] over in {V}.",
        "{P} place is in {V}.",
    ],
    [
        "!{S} [have|has] moved to {V}.",
        "{S} now [live|lives] in {V}.",
        "{S} moved from {OLD} to {V}.",
        "!{S} relocated to {V} last month.",
        "{S} no longer [live|lives] in {OLD}; home is {V} now.",
        "{S} used to live in {OLD}, but now [live|lives] in {V}.",
    ],
    [
        "{S} [live|lives] in {V}, in a flat near the old harbour.",
        "{S} [live|lives] in {V}, about twenty minutes from the centre by tram.",
        "{S} [live|lives] in {V}, in a small house with a garden.",
    ],
)
A(
    "works_in",
    "work",
    "person",
    v_city,
    ["{S} [work|works] in {V}.", "{P} job is in {V}.", "{S} [commute|commutes] into {V} for work."],
    ["{S} now [work|works] in {V}.", "!{P} job moved to {V}.", "{S} got transferred from {OLD} to {V} for work."],
    ["{S} [work|works] in {V}, in an office by the river.", "{S} [work|works] in {V}, three days a week on site."],
)
A(
    "works_at",
    "work",
    "person",
    v_choice(COMPANIES),
    ["{S} [work|works] at {V}.", "{S} [am|is] employed by {V}.", "{P} employer is {V}."],
    [
        "{S} now [work|works] at {V}.",
        "{S} left {OLD} and [work|works] at {V} now.",
        "!{S} started a new job at {V}.",
        "{S} switched jobs from {OLD} to {V}.",
    ],
    ["{S} [work|works] at {V}, mostly on the early shift.", "{S} [work|works] at {V}, in the finance team."],
)
A(
    "birthday",
    "dates",
    "person",
    v_date,
    ["{P} birthday is on {V}.", "{P} birthday is {V}.", "{S} [was|was] born on {V}.", "{P} birthday falls on {V}."],
    ["correction: {P} birthday is {V}, not {OLD}.", "I got it wrong before: {P} birthday is actually {V}."],
    [
        "{P} birthday is on {V}, and there's usually a big family dinner.",
        "{P} birthday is {V}; a card needs to go in the post a week before.",
    ],
    prefix="fixed",
)
A(
    "anniversary",
    "dates",
    "person",
    v_date,
    ["{P} wedding anniversary is on {V}.", "{P} anniversary is {V}.", "{S} got married on {V}."],
    ["correction: {P} wedding anniversary is {V}, not {OLD}."],
    ["{P} wedding anniversary is on {V}; it'll be ten years this time."],
    prefix="fixed",
)
A(
    "partner_name",
    "family",
    "person",
    v_person_name,
    ["{P} partner is called {V}.", "{P} partner's name is {V}.", "{S} [am|is] in a relationship with {V}."],
    ["!{S} [have|has] a new partner called {V}.", "{S} split up with {OLD} and [am|is] now with {V}."],
    ["{P} partner is called {V}, and [we've|they've] been together about six years."],
    noroles=True,
)
A(
    "kids_count",
    "family",
    "person",
    v_count(2, 5, "kids"),
    ["{S} [have|has] {V} kids.", "{S} [have|has] {V} children.", "{S} [have|has] {V} children in total."],
    [">with the new baby, {S} now [have|has] {V} kids."],
    ["{S} [have|has] {V} kids, and the youngest just started school."],
    noroles=True,
)
A(
    "pet_name",
    "pets",
    "petowner",
    v_choice(PET_NAMES),
    ["{P} {SPECIES} is called {V}.", "{P} {SPECIES}'s name is {V}.", "{S} [have|has] a {SPECIES} named {V}."],
    [],
    ["{P} {SPECIES} is called {V}, and is about four years old."],
    change="none",
)
A(
    "languages",
    "languages",
    "person",
    v_choice(LANGUAGES),
    ["{S} [speak|speaks] {V}.", "{S} [am|is] fluent in {V}."],
    [],
    ["{S} [speak|speaks] {V}, having grown up with it at home."],
    addl=["{S} also [speak|speaks] {V}.", "{S} [speak|speaks] {V} as well."],
    change="none",
)

# --- food and preferences --------------------------------------------------
A(
    "fav_cuisine",
    "food",
    "person",
    v_choice(CUISINES),
    [
        "{P} favourite cuisine is {V}.",
        "{S} [love|loves] {V} food more than any other.",
        "{S} [prefer|prefers] {V} food.",
        "if {S} could only eat one cuisine, it would be {V}.",
    ],
    [
        "{S} now [prefer|prefers] {V} food.",
        "{P} favourite cuisine is {V} now.",
        "{P} favourite cuisine went from {OLD} to {V}.",
        "{S} [have|has] gone off {OLD} food; {V} is the favourite now.",
    ],
    [
        "{P} favourite cuisine is {V}, especially the street food.",
        "{S} [love|loves] {V} food more than any other, and home-cooked best of all.",
    ],
    k="preference",
    prefix="pref",
)
A(
    "fav_food",
    "food",
    "person",
    v_choice(FOODS),
    ["{P} favourite dish is {V}.", "{S} [love|loves] {V} more than any other dish.", "nothing beats {V} for {O}."],
    ["{P} favourite dish is now {V}.", "{S} used to love {OLD} most, but now it's {V}."],
    ["{P} favourite dish is {V}, ideally homemade.", "{P} favourite dish is {V}, with plenty of extra sauce."],
    k="preference",
    prefix="pref",
)
A(
    "fav_colour",
    "colour",
    "person",
    v_choice(COLOURS),
    ["{P} favourite colour is {V}.", "{S} [like|likes] {V} best of all the colours."],
    ["{P} favourite colour is {V} now.", "{P} favourite colour has gone from {OLD} to {V}."],
    ["{P} favourite colour is {V}, the darker the better."],
    k="preference",
    prefix="pref",
)
A(
    "coffee_order",
    "food",
    "person",
    v_choice(COFFEES),
    ["{P} usual coffee order is {aV}.", "{S} always [order|orders] {aV} at the café.", "{P} go-to coffee is {aV}."],
    ["{P} usual coffee order is now {aV}.", "{S} switched from {aOLD} to {aV}.", "these days {S} [order|orders] {aV}."],
    ["{P} usual coffee order is {aV}, extra hot.", "{P} go-to coffee is {aV}, no sugar."],
    k="preference",
    prefix="pref",
)

# --- cars ------------------------------------------------------------------
A(
    "drives",
    "car",
    "person",
    v_choice(CARS),
    ["{S} [drive|drives] {aV}.", "{P} car is {aV}.", "{S} [get|gets] around in {aV}."],
    [
        "!{S} just got a new car, {aV}.",
        "{S} now [drive|drives] {aV}.",
        "{S} traded in the {OLD} for {aV}.",
        "!{S} upgraded to {aV}.",
        "{S} sold the {OLD} and [drive|drives] {aV} now.",
    ],
    ["{S} [drive|drives] {aV}, mostly for weekend trips.", "{P} car is {aV}, bought second-hand a few years ago."],
)
A(
    "car_colour",
    "car",
    "person",
    v_choice(COLOURS),
    ["{P} car is {V}.", "{S} [drive|drives] a {V} car."],
    ["{P} car is {V} now after the respray.", "!{S} had the car resprayed {V}."],
    ["{P} car is {V}, with a small dent on the back bumper."],
)
A(
    "car_service",
    "car",
    "person",
    v_date,
    ["{P} car is due for a service on {V}.", "{P} car's next service is on {V}."],
    ["{P} car service was moved to {V}.", "the garage rescheduled {P} car service to {V}."],
    ["{P} car's next service is on {V}, at the garage on Mill Lane."],
    prefix="sched",
)

# --- health ----------------------------------------------------------------
A(
    "gp",
    "health",
    "person",
    v_choice(DOCTORS),
    ["{P} GP is {V}.", "{P} family doctor is {V}.", "{V} is {P} GP."],
    ["!{P} new GP is {V}.", "{P} GP changed from {OLD} to {V}.", "{P} GP is now {V}."],
    ["{P} GP is {V} at the Larkfield surgery.", "{P} GP is {V}, who is easy to get hold of."],
)
A(
    "dentist_name",
    "health",
    "person",
    v_choice(DOCTORS),
    ["{P} dentist is {V}.", "{V} is {P} dentist."],
    ["!{S} [have|has] a new dentist, {V}.", "{P} dentist changed from {OLD} to {V}.", "{P} dentist is {V} now."],
    ["{P} dentist is {V}, at the practice on Wren Street."],
)
A(
    "allergy",
    "health",
    "person",
    v_allergen,
    ["{S} [am|is] allergic to {V}.", "{S} [have|has] an allergy to {V}.", "{S} [have|has] {aVa} allergy."],
    [],
    [
        "{S} [am|is] allergic to {V}; it's a fairly mild reaction.",
        "{S} [am|is] allergic to {V}, so restaurants need a heads-up.",
    ],
    addl=["{S} [am|is] also allergic to {V}.", "{S} [have|has] {aVa} allergy as well."],
    change="none",
)
A(
    "appt",
    "appointments",
    "appt",
    v_dtime,
    ["{S} is on {V}.", "{S} is booked for {V}.", "{S} is scheduled for {V}."],
    [
        "{S} has been rescheduled to {V}.",
        "{S} got moved to {V}.",
        "{S} is now on {V}.",
        "{S} was moved from {OLD} to {V}.",
        "they rescheduled {S} to {V}.",
    ],
    [
        "{S} is on {V}; it should take about half an hour.",
        "{S} is on {V}, and the reminder text has already come through.",
    ],
    prefix="sched",
)
A(
    "med_dose",
    "health",
    "med",
    v_dose,
    ["{S} [take|takes] {V} of {MED} a day.", "{P} daily {MED} dose is {V}.", "{S} [am|is] on {V} of {MED} daily."],
    [
        "{P} {MED} dose was changed to {V}.",
        "{S} [have|has] gone from {OLD} to {V} of {MED}.",
        "{S} now [take|takes] {V} of {MED} a day.",
        "the doctor adjusted {P} {MED} to {V} a day.",
    ],
    ["{S} [take|takes] {V} of {MED} a day, always with food."],
    prefix="habit",
)
A(
    "med_time",
    "health",
    "med",
    v_choice(MED_TIMES),
    ["{S} [take|takes] {MED} {V}.", "{P} {MED} gets taken {V}."],
    ["{S} now [take|takes] {MED} {V}."],
    ["{S} [take|takes] {MED} {V}, with a glass of water."],
    change="cued",  # some medicines are taken twice a day: two times are not a contradiction
    prefix="habit",
)

# --- fitness ---------------------------------------------------------------
A(
    "run_pb",
    "fitness",
    "run",
    v_runtime,
    ["{P} {DIST} personal best is {V}.", "{P} fastest {DIST} is {V}.", "{P} {DIST} PB stands at {V}."],
    [
        "<{S} set a new {DIST} PB of {V}.",
        "<{P} {DIST} PB is down to {V} now.",
        "<{S} knocked the {DIST} best down from {OLD} to {V}.",
    ],
    ["{P} {DIST} personal best is {V}, set on a flat course by the river."],
)
A(
    "run_goal",
    "fitness",
    "run",
    v_runtime,
    ["{P} {DIST} goal is {V}.", "{S} [am|is] aiming to run the {DIST} in {V}."],
    ["{P} {DIST} target is now {V}.", "!{P} {DIST} goal has been reset to {V}."],
    ["{P} {DIST} goal is {V}, ideally before the autumn race."],
)
A(
    "gym_days",
    "fitness",
    "person",
    v_weekset,
    ["{S} [go|goes] to the gym {V}.", "{P} gym days are {Vb}.", "{S} [train|trains] at the gym {V}."],
    [
        "{S} now [go|goes] to the gym {V}.",
        "{P} gym days moved to {Vb}.",
        "{P} gym sessions switched from {OLDb} to {Vb}.",
    ],
    ["{S} [go|goes] to the gym {V}, usually first thing in the morning."],
    prefix="habit",
)
A(
    "runs_week",
    "fitness",
    "person",
    v_count(2, 6, "runs"),
    ["{S} [run|runs] {V} times a week.", "{S} [go|goes] running {V} times a week."],
    [
        ">{S} [am|is] up to {V} runs a week now.",
        "{S} now [run|runs] {V} times a week.",
        "<{S} cut back to {V} runs a week.",
    ],
    ["{S} [run|runs] {V} times a week, mostly along the canal."],
    prefix="habit",
)
A(
    "weight",
    "fitness",
    "person",
    v_kg_person,
    ["{S} [weigh|weighs] {V}.", "{P} weight is {V}.", "on the scales {S} [come|comes] in at {V}."],
    ["<{S} [am|is] down to {V} now.", ">{S} [have|has] gone up to {V}.", "{S} [weigh|weighs] {V} now."],
    ["{S} [weigh|weighs] {V}, measured first thing in the morning."],
    owners="self",
)
A(
    "target_weight",
    "fitness",
    "person",
    v_kg_person,
    ["{P} target weight is {V}.", "{S} [am|is] aiming for a weight of {V}."],
    ["{P} target weight is now {V}.", "!{P} target weight changed to {V}."],
    ["{P} target weight is {V}, to reach by the summer."],
    owners="self",
)
A(
    "calories",
    "fitness",
    "person",
    v_calories,
    ["{P} daily calorie target is {V}.", "{S} [aim|aims] for {V} a day."],
    ["{P} daily calorie target is now {V}.", "{S} changed the calorie target from {OLD} to {V}."],
    ["{P} daily calorie target is {V}, tracked in an app."],
    owners="self",
    prefix="habit",
)

# --- home ------------------------------------------------------------------
A(
    "address",
    "home",
    "person",
    v_address,
    ["{P} address is {V}.", "{S} [live|lives] at {V}."],
    ["!{P} new address is {V}.", "!{S} moved to {V} last month.", "{S} moved from {OLD} to {V}."],
    ["{P} address is {V}, and the buzzer is on the left."],
)
A(
    "landlord",
    "home",
    "person",
    v_choice(LANDLORDS),
    ["{P} landlord is {V}.", "the flat is rented from {V}.", "{V} is {P} landlord.", "our landlord is {V}."],
    [
        "!the flat was sold, so {P} landlord is now {V}.",
        "!{S} [have|has] a new landlord, {V}.",
        "{P} landlord is {V} now.",
    ],
    ["{P} landlord is {V}, who lives in the flat downstairs."],
    owners="self",
)
A(
    "rent",
    "home",
    "person",
    v_money(700, 2200, 25, "rent"),
    ["{P} rent is {V} a month.", "{S} [pay|pays] {V} a month in rent.", "the rent on {P} flat is {V} a month."],
    [
        ">{P} rent went up to {V} a month.",
        ">the landlord raised {P} rent from {OLD} to {V}.",
        "{P} rent is {V} a month now.",
    ],
    ["{P} rent is {V} a month, including water.", "{S} [pay|pays] {V} a month in rent, due on the first."],
    prefix="price",
)
A(
    "deposit",
    "home",
    "person",
    v_money(700, 3000, 50, "deposit"),
    ["the deposit on {P} flat was {V}.", "{S} paid a deposit of {V} for the flat."],
    ["correction: the deposit on {P} flat was {V}, not {OLD}."],
    ["the deposit on {P} flat was {V}, held in a protection scheme."],
    prefix="fixed",
)
A(
    "wifi_pw",
    "home",
    "person",
    v_wifi,
    ["the wifi password is {V}.", "the password for {P} wifi is {V}.", "to get on the wifi, use the password {V}."],
    ["{S} changed the wifi password to {V}.", "!the new wifi password is {V}.", "the wifi password is now {V}."],
    ["the wifi password is {V}, all lowercase."],
    owners="self",
)
A(
    "isp",
    "home",
    "person",
    v_choice(ISPS),
    ["{P} broadband provider is {V}.", "{S} [get|gets] broadband from {V}."],
    ["{S} switched broadband from {OLD} to {V}.", "{P} broadband is with {V} now."],
    ["{P} broadband provider is {V}, on the 500 Mb plan."],
    owners="self",
)
A(
    "appl_brand",
    "home",
    "appl",
    v_brand,
    ["the {APPL} is {aV}.", "{P} {APPL} is made by {V}.", "we have {aV} {APPL}."],
    [
        "!we replaced the {APPL} with {aV}.",
        "!we just got a new {APPL}, {aV}.",
        "the {APPL} is {aV} now; the old one gave up.",
    ],
    ["the {APPL} is {aV}, the model with the quiet mode."],
)
A(
    "appl_warranty",
    "home",
    "appl",
    v_monthyear,
    ["the {APPL} warranty runs until {V}.", "the warranty on the {APPL} expires in {V}."],
    ["!>the {APPL} warranty was extended to {V}.", "the {APPL} warranty now runs until {V}."],
    ["the {APPL} warranty runs until {V}; the receipt is in the kitchen drawer."],
)
A(
    "bins",
    "home",
    "waste",
    v_weekly,
    ["the {BIN} goes out {V}.", "{BIN} collection is {V}.", "the {BIN} gets collected {V}."],
    [
        "{BIN} collection is {V} now.",
        "the council moved {BIN} collection to {Vb}.",
        "{BIN} collection switched from {OLDb} to {Vb}.",
    ],
    ["the {BIN} goes out {V}, in the bins by the side gate."],
    prefix="habit",
)
A(
    "plants",
    "garden",
    "plant",
    v_count(2, 24, "plants"),
    ["there are {V} {PLANT} in the garden this year.", "I've got {V} {PLANT} growing in the veg patch."],
    [">I'm up to {V} {PLANT} now.", "there are {V} {PLANT} in the garden now."],
    ["there are {V} {PLANT} in the garden this year, all in the raised bed."],
)

# --- travel ----------------------------------------------------------------
A(
    "passport",
    "travel",
    "person",
    v_monthyear,
    ["{P} passport expires in {V}.", "{P} passport is valid until {V}."],
    ["!>{S} renewed the passport, and the new one expires in {V}.", "!>{P} new passport is valid until {V}."],
    ["{P} passport expires in {V}, so there's time before the summer trip."],
    prefix=None,
)
A(
    "visa",
    "travel",
    "visa",
    v_dateyear,
    ["{P} visa for {COUNTRY} is valid until {V}.", "{P} {CADJ} visa expires on {V}."],
    ["!>{P} {CADJ} visa was extended until {V}.", "{P} {CADJ} visa now runs until {V}."],
    ["{P} visa for {COUNTRY} is valid until {V}, and allows multiple entries."],
    prefix=None,
)
A(
    "trip_start",
    "travel",
    "trip",
    v_date,
    ["{S} starts on {V}.", "we leave for {CITY} on {V}.", "we're heading to {CITY} on {V}."],
    ["we moved {S} to {V}.", "{S} now starts on {V}.", "we changed {S} from {OLD} to {V}."],
    ["we leave for {CITY} on {V} and stay for a week.", "{S} starts on {V}, with an early train to the airport."],
    k="plan",
    prefix="sched",
)
A(
    "trip_hotel",
    "travel",
    "trip",
    v_choice(HOTELS),
    ["we're staying at {V} in {CITY}.", "our hotel in {CITY} is {V}.", "for {CITY}, we booked {V}."],
    [
        "we cancelled {OLD} and booked {V} in {CITY} instead.",
        "we're now staying at {V} in {CITY}.",
        "!we switched hotels in {CITY} to {V}.",
    ],
    ["we're staying at {V} in {CITY}, with breakfast included.", "our hotel in {CITY} is {V}, right by the old town."],
    k="plan",
    prefix="sched",
)
A(
    "flight_dep",
    "travel",
    "flight",
    v_time(6, 21, "flighttime"),
    ["{S} leaves at {V}.", "{S} departs at {V}.", "{S} takes off at {V}."],
    [
        "{S} was moved to {V}.",
        "the airline rescheduled {S} to {V}.",
        "{S} now leaves at {V}.",
        "{S} changed from {OLD} to {V}.",
    ],
    ["{S} leaves at {V} from Terminal 2.", "{S} departs at {V}, with a short layover on the way."],
    k="plan",
    prefix="sched",
)
A(
    "flight_arr",
    "travel",
    "flight",
    v_time(7, 23, "flighttime"),
    ["{S} lands at {V}.", "{S} gets in at {V}.", "{S} arrives at {V}."],
    ["{S} now lands at {V}.", ">{S} is delayed and will land at {V}."],
    ["{S} lands at {V}, and the airport is forty minutes from the centre."],
    k="plan",
    prefix="sched",
)

# --- finance ---------------------------------------------------------------
A(
    "bank",
    "finance",
    "person",
    v_choice(BANKS),
    ["{S} [bank|banks] with {V}.", "{P} main bank is {V}.", "{S} [use|uses] {V} for everyday banking."],
    ["{S} switched from {OLD} to {V}.", "!{P} current account moved to {V}.", "{S} now [bank|banks] with {V}."],
    ["{S} [bank|banks] with {V}, mostly through the app."],
)
A(
    "salary",
    "finance",
    "person",
    v_money(28000, 120000, 500, "salary"),
    ["{P} salary is {V} a year.", "{S} [earn|earns] {V} a year."],
    [">{S} got a raise to {V} a year.", ">{P} salary went up to {V}.", "{P} salary is {V} now."],
    ["{S} [earn|earns] {V} a year, before tax."],
    prefix="price",
)
A(
    "savings_tx",
    "finance",
    "person",
    v_money(50, 900, 25, "savings"),
    ["{S} [put|puts] {V} into savings every month.", "{P} monthly savings transfer is {V}."],
    [
        ">{P} monthly savings transfer went up to {V}.",
        "{P} monthly savings transfer is now {V}.",
        "{S} now [save|saves] {V} a month.",
    ],
    ["{S} [put|puts] {V} into savings every month, on payday."],
    prefix="habit",
)
A(
    "fund_goal",
    "finance",
    "fund",
    v_money(1000, 30000, 500, "fund"),
    ["the savings goal for the {GOAL} is {V}.", "I'm saving up {V} for the {GOAL}."],
    [
        ">I raised the {GOAL} goal to {V}.",
        "the {GOAL} target is now {V}.",
        "I changed the {GOAL} target from {OLD} to {V}.",
    ],
    ["the savings goal for the {GOAL} is {V}, hopefully by next spring."],
)
A(
    "budget",
    "finance",
    "budget",
    v_money(50, 900, 10, "budget"),
    ["my monthly {CAT} budget is {V}.", "I budget {V} a month for {CAT}."],
    [
        "my {CAT} budget is now {V} a month.",
        "I changed my {CAT} budget from {OLD} to {V}.",
        "<I cut my {CAT} budget to {V} a month.",
    ],
    ["my monthly {CAT} budget is {V}, tracked in a spreadsheet."],
    prefix="price",
)
A(
    "sub_price",
    "finance",
    "service",
    v_money(2, 24, 1, "subprice", cents=True),
    ["{SVC} costs {V} a month.", "my {SVC} subscription is {V} a month.", "I pay {V} a month for {SVC}."],
    [
        ">{SVC} went up to {V} a month.",
        ">{SVC} raised the price from {OLD} to {V}.",
        "{SVC} is {V} a month now.",
        "<I moved to the cheaper {SVC} plan at {V} a month.",
    ],
    ["{SVC} costs {V} a month, on the family plan."],
    prefix="price",
)
A(
    "sub_renewal",
    "finance",
    "service",
    v_dom,
    ["{SVC} renews on the {V} of each month.", "my {SVC} subscription renews on the {V}."],
    ["{SVC} now renews on the {V}."],
    ["{SVC} renews on the {V} of each month, charged to the credit card."],
)
A(
    "bill_due",
    "finance",
    "bill",
    v_dom,
    [
        "the {BILL} bill is due on the {V}.",
        "I pay the {BILL} bill on the {V} of the month.",
        "the {BILL} bill comes out on the {V}.",
    ],
    [
        "the {BILL} bill is now due on the {V}.",
        "the due date for the {BILL} bill moved to the {V}.",
        "the {BILL} bill moved from the {OLD} to the {V}.",
    ],
    ["the {BILL} bill is due on the {V}, by direct debit."],
)
A(
    "bill_amount",
    "finance",
    "bill",
    v_money(20, 180, 5, "billamt"),
    ["the {BILL} bill is {V} a month.", "we pay {V} a month for {BILL}."],
    [">the {BILL} bill went up to {V} a month.", "the {BILL} bill is {V} a month now."],
    ["the {BILL} bill is {V} a month, split between the two of us."],
    prefix="price",
)
A(
    "ins_provider",
    "finance",
    "policy",
    v_choice(INSURERS),
    ["my {POL} is with {V}.", "I have my {POL} with {V}.", "{V} handles my {POL}."],
    ["I switched my {POL} from {OLD} to {V}.", "my {POL} is with {V} now.", "!I moved my {POL} to {V} at renewal."],
    ["my {POL} is with {V}, paid annually."],
)
A(
    "ins_renewal",
    "finance",
    "policy",
    v_date,
    ["my {POL} renews on {V}.", "the renewal date for my {POL} is {V}."],
    ["my {POL} now renews on {V}."],
    ["my {POL} renews on {V}, and the reminder usually comes a month before."],
)
A(
    "ins_premium",
    "finance",
    "policy",
    v_money(60, 900, 10, "premium"),
    ["my {POL} costs {V} a year.", "I pay {V} a year for my {POL}."],
    [">my {POL} premium went up to {V} a year.", "my {POL} costs {V} a year now."],
    ["my {POL} costs {V} a year, with a small excess."],
    prefix="price",
)

# --- hobbies ---------------------------------------------------------------
A(
    "coll_count",
    "hobby",
    "coll",
    v_count(8, 400, "collection"),
    [
        "{S} [have|has] a collection of {V} {ITEM}.",
        "there are {V} {ITEM} in {P} collection.",
        "{P} {ITEM_SG} collection is {V} strong.",
    ],
    [">{S} [am|is] up to {V} {ITEM} now.", "{P} {ITEM_SG} collection now has {V}.", "{S} now [have|has] {V} {ITEM}."],
    [
        "{P} {ITEM_SG} collection is {V} strong, kept in a big wooden cabinet.",
        "there are {V} {ITEM} in {P} collection, all catalogued in a notebook.",
    ],
)
A(
    "cls_day",
    "hobby",
    "cls",
    v_weekly,
    ["{P} {CLASS} class is {V}.", "{S} [go|goes] to {CLASS} {V}.", "{S} [have|has] {CLASS} class {V}."],
    [
        "{P} {CLASS} class moved to {Vb}.",
        "{P} {CLASS} class is {V} now.",
        "{P} {CLASS} class switched from {OLDb} to {Vb}.",
    ],
    ["{P} {CLASS} class is {V}, at the community centre."],
    prefix="habit",
)
A(
    "cls_time",
    "hobby",
    "cls",
    v_time(9, 20, "classtime"),
    ["{P} {CLASS} class starts at {V}.", "{P} {CLASS} class begins at {V}."],
    ["{P} {CLASS} class starts at {V} now.", "{P} {CLASS} class moved to {V}."],
    ["{P} {CLASS} class starts at {V} and runs for ninety minutes."],
    prefix="habit",
)
A(
    "cls_teacher",
    "hobby",
    "cls",
    v_person_name,
    ["{P} {CLASS} teacher is {V}.", "{P} {CLASS} class is taught by {V}."],
    ["!{P} {CLASS} class has a new teacher, {V}.", "{P} {CLASS} class is taught by {V} now."],
    ["{P} {CLASS} teacher is {V}, who is very patient."],
)
A(
    "instr_day",
    "hobby",
    "instr",
    v_weekly,
    ["{S} [have|has] {INSTR} lessons {V}.", "{P} {INSTR} lesson is {V}."],
    ["{P} {INSTR} lessons moved to {Vb}.", "{S} now [have|has] {INSTR} lessons {V}."],
    ["{S} [have|has] {INSTR} lessons {V}, with a teacher across town."],
    prefix="habit",
)
A(
    "plays",
    "hobby",
    "person",
    v_choice(INSTRUMENTS),
    ["{S} [play|plays] the {V}.", "{S} [know|knows] how to play the {V}."],
    [],
    ["{S} [play|plays] the {V}, mostly folk tunes."],
    addl=["{S} also [play|plays] the {V}.", "{S} [play|plays] the {V} as well."],
    change="none",
)
A(
    "book_current",
    "hobby",
    "person",
    v_choice(BOOKS),
    ["{S} [am|is] reading {V}.", "{S} [am|is] in the middle of {V}."],
    ["{S} finished {OLD} and [am|is] now reading {V}.", "{S} moved on from {OLD} to {V}."],
    ["{S} [am|is] reading {V}, a chapter every night before bed."],
    change="cued",
    prefix=None,
)
A(
    "bookclub",
    "hobby",
    "bookclub",
    v_choice(BOOKS),
    ["the book club pick for {MONTH} is {V}.", "for {MONTH}, the book club is reading {V}."],
    [
        "the book club pick for {MONTH} was changed to {V}.",
        "the book club swapped the {MONTH} pick from {OLD} to {V}.",
        "the {MONTH} book club pick is now {V}.",
    ],
    ["the book club pick for {MONTH} is {V}, and the meeting is at the library."],
)

# --- pets ------------------------------------------------------------------
A(
    "pet_vet",
    "pets",
    "pet",
    v_choice(VETS),
    ["{S} goes to {V}.", "{P} vet is {V}.", "{S} is registered at {V}."],
    ["{S} is now registered at {V}.", "we moved {S} from {OLD} to {V}.", "!we switched {P} vet to {V}."],
    ["{P} vet is {V}, about ten minutes away."],
)
A(
    "pet_groomer",
    "pets",
    "pet",
    v_choice(GROOMERS),
    ["{P} groomer is {V}.", "{S} gets groomed at {V}."],
    ["{P} groomer is {V} now."],
    ["{P} groomer is {V}, every six weeks or so."],
)
A(
    "pet_food",
    "pets",
    "pet",
    v_choice(PET_FOODS),
    ["{S} eats {V}.", "{S} is on {V} food.", "we feed {S} {V}."],
    ["we switched {S} from {OLD} to {V}.", "{S} is on {V} now.", "{S} eats {V} now, on the vet's advice."],
    ["{S} eats {V}, the grain-free kind."],
)
A(
    "pet_weight",
    "pets",
    "pet",
    v_kg_pet,
    ["{S} weighs {V}.", "{P} weight is {V}."],
    ["{S} weighs {V} now.", ">{S} is up to {V}.", "<{S} is down to {V}.", "as of the last vet visit, {S} weighs {V}."],
    ["{S} weighs {V}, which the vet says is healthy."],
)

# --- shopping --------------------------------------------------------------
A(
    "order_delivery",
    "shopping",
    "order",
    v_delivery,
    ["{S} arrives {V}.", "{S} is due to arrive {V}.", "the {OITEM} from {SHOP} (order #{N}) arrives {V}."],
    [
        "{S} is now arriving {V}.",
        "the delivery for {S} was rescheduled to {Vb}.",
        "{SHOP} moved the delivery of {S} to {Vb}.",
    ],
    ["{S} arrives {V}, sometime between 8 and 12.", "{S} arrives {V}; it needs a signature."],
    prefix="sched",
)
A(
    "refund",
    "shopping",
    "order",
    v_money(9, 250, 1, "refund"),
    ["the refund for {S} is {V}.", "{SHOP} is refunding {V} for {S}."],
    ["the refund for {S} was adjusted to {V}.", "the refund for {S} is {V} now."],
    ["the refund for {S} is {V}, back to the original card."],
)
A(
    "return_deadline",
    "shopping",
    "order",
    v_date,
    ["the return window for {S} closes on {V}.", "{S} can be returned until {V}."],
    ["!{SHOP} extended the return window for {S} to {V}."],
    ["the return window for {S} closes on {V}, and the label is already printed."],
)

# Different attributes of the same subject (other-attribute).  same=True allows
# the two to share a value; "after" asks the second to be later than the first.
OTHER_ATTR = [
    ("lives_in", "works_in", True),
    ("works_at", "works_in", False),
    ("birthday", "anniversary", True),
    ("fav_colour", "car_colour", True),
    ("fav_cuisine", "fav_food", False),
    ("fav_food", "coffee_order", False),
    ("drives", "car_colour", False),
    ("drives", "car_service", False),
    ("gp", "dentist_name", "diff"),
    ("weight", "target_weight", "diff"),
    ("partner_name", "kids_count", False),
    ("med_dose", "med_time", False),
    ("run_pb", "run_goal", "diff"),
    ("gym_days", "runs_week", False),
    ("cls_day", "cls_time", False),
    ("cls_day", "cls_teacher", False),
    ("cls_time", "cls_teacher", False),
    ("trip_start", "trip_hotel", False),
    ("flight_dep", "flight_arr", "after"),
    ("sub_price", "sub_renewal", False),
    ("bill_due", "bill_amount", False),
    ("ins_provider", "ins_renewal", False),
    ("ins_provider", "ins_premium", False),
    ("pet_vet", "pet_groomer", False),
    ("pet_food", "pet_weight", False),
    ("pet_vet", "pet_food", False),
    ("order_delivery", "refund", False),
    ("order_delivery", "return_deadline", False),
    ("appl_brand", "appl_warranty", False),
    ("rent", "deposit", True),
    ("landlord", "rent", False),
    ("bank", "salary", False),
    ("salary", "savings_tx", False),
    ("lives_in", "address", False),
    ("wifi_pw", "isp", False),
    ("rent", "address", False),
]

# topics that are close enough that a pair between them is not "unrelated"
RELATED_TOPICS = {
    frozenset(x)
    for x in [
        ("residence", "work"),
        ("residence", "home"),
        ("residence", "travel"),
        ("food", "health"),
        ("fitness", "health"),
        ("fitness", "food"),
        ("car", "finance"),
        ("home", "finance"),
        ("shopping", "finance"),
        ("travel", "finance"),
        ("dates", "family"),
        ("pets", "health"),
        ("appointments", "health"),
        ("work", "finance"),
        ("family", "pets"),
        ("hobby", "shopping"),
        ("car", "travel"),
        ("home", "shopping"),
        ("home", "garden"),
        ("appointments", "pets"),
        ("appointments", "car"),
        ("colour", "car"),
        ("colour", "home"),
        ("colour", "shopping"),
        ("residence", "family"),
        ("hobby", "garden"),
        ("sport", "fitness"),
        ("social", "family"),
        ("media", "hobby"),
        ("sport", "health"),
        ("fitness", "hobby"),
        ("sport", "hobby"),
        ("languages", "hobby"),
        ("languages", "travel"),
        ("languages", "residence"),
        ("languages", "family"),
    ]
}


def topics_unrelated(t1: str, t2: str) -> bool:
    return t1 != t2 and frozenset((t1, t2)) not in RELATED_TOPICS


# ---------------------------------------------------------------------------
# Yes/no facts for the negation frames
# pos / neg: uncued affirmation and denial; cneg / cpos: cued change to the
# negative / positive ("!" = implies an event, not used with the same value).
# ---------------------------------------------------------------------------

# a yes/no fact; looked up by side ("pos", "neg", "cneg", "cpos") chosen at run time, hence a plain dict
NegItem: TypeAlias = dict[str, Any]
NEG: list[NegItem] = [
    {
        "name": "meat",
        "topic": "food",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [eat|eats] meat.", "{S} [eat|eats] meat, chicken and fish included."],
        "neg": ["{S} [don't|doesn't] eat meat.", "{S} never [eat|eats] meat."],
        "cneg": [
            "{S} no longer [eat|eats] meat.",
            "!{S} stopped eating meat.",
            "!{S} [have|has] given up meat.",
            "{S} [don't|doesn't] eat meat anymore.",
        ],
        "cpos": ["{S} [eat|eats] meat now.", "!{S} started eating meat a few weeks ago."],
    },
    {
        "name": "coffee",
        "topic": "food",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [drink|drinks] coffee.", "{S} [have|has] a coffee most mornings."],
        "neg": ["{S} [don't|doesn't] drink coffee.", "{S} never [touch|touches] coffee."],
        "cneg": ["!{S} [have|has] quit coffee.", "{S} [don't|doesn't] drink coffee anymore."],
        "cpos": ["{S} [drink|drinks] coffee now.", "!{S} started drinking coffee this year."],
    },
    {
        "name": "alcohol",
        "topic": "food",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [drink|drinks] alcohol.", "{S} [enjoy|enjoys] a glass of wine with dinner."],
        "neg": ["{S} [don't|doesn't] drink alcohol.", "{S} [am|is] teetotal."],
        "cneg": [
            "!{S} [have|has] stopped drinking alcohol.",
            "{S} [am|is] off alcohol now.",
            "{S} [don't|doesn't] drink alcohol anymore.",
        ],
        "cpos": ["{S} [drink|drinks] the occasional glass of wine now."],
    },
    {
        "name": "spicy",
        "topic": "food",
        "kind": "person",
        "k": "preference",
        "pos": ["{S} [like|likes] spicy food.", "{S} [love|loves] really hot, spicy dishes."],
        "neg": ["{S} [don't|doesn't] like spicy food.", "{S} [can't|can't] stand spicy food."],
        "cneg": ["{S} [don't|doesn't] like spicy food anymore.", "!{S} went off spicy food."],
        "cpos": ["!{S} [have|has] come round to spicy food.", "{S} [like|likes] spicy food now."],
    },
    {
        "name": "vegetarian",
        "topic": "food",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [am|is] vegetarian.", "{S} [follow|follows] a vegetarian diet."],
        "neg": ["{S} [am not|isn't] vegetarian.", "{S} [am not|isn't] a vegetarian."],
        "cneg": ["{S} [am not|isn't] vegetarian anymore.", "!{S} gave up being vegetarian."],
        "cpos": ["!{S} [have|has] gone vegetarian.", "{S} [am|is] vegetarian now."],
    },
    {
        "name": "dairy",
        "topic": "food",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [eat|eats] dairy.", "{S} [have|has] no problem with dairy."],
        "neg": ["{S} [don't|doesn't] eat dairy.", "{S} [avoid|avoids] dairy completely."],
        "cneg": ["!{S} cut out dairy completely.", "{S} no longer [eat|eats] dairy."],
        "cpos": ["!{S} [have|has] started eating dairy."],
    },
    {
        "name": "smoke",
        "topic": "health",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [smoke|smokes] cigarettes.", "{S} [am|is] a smoker."],
        "neg": ["{S} [don't|doesn't] smoke.", "{S} [am not|isn't] a smoker."],
        "cneg": ["!{S} quit smoking.", "{S} [don't|doesn't] smoke anymore.", "{S} no longer [smoke|smokes]."],
        "cpos": ["!{S} [have|has] taken up smoking."],
    },
    {
        "name": "allergic",
        "topic": "health",
        "kind": "person",
        "k": "fact",
        "extra": "ALG",
        "pos": ["{S} [am|is] allergic to {ALG}.", "{S} [have|has] an allergy to {ALG}."],
        "neg": ["{S} [am not|isn't] allergic to {ALG}.", "{S} [have|has] no allergy to {ALG}."],
        "cneg": ["!{S} [have|has] outgrown the {ALG_SG} allergy.", "{S} [am|is] no longer allergic to {ALG}."],
        "cpos": ["!{S} [have|has] developed an allergy to {ALG}."],
    },
    {
        "name": "takes_med",
        "topic": "health",
        "kind": "person",
        "k": "fact",
        "extra": "MED",
        "pos": ["{S} [take|takes] {MEDX}.", "{S} [am|is] on {MEDX}."],
        "neg": ["{S} [don't|doesn't] take {MEDX}.", "{S} [am not|isn't] on {MEDX}."],
        "cneg": ["!{S} stopped taking {MEDX}.", "{S} [am|is] off {MEDX} now.", "{S} no longer [take|takes] {MEDX}."],
        "cpos": ["!{S} started on {MEDX} last month.", "{S} [am|is] on {MEDX} now."],
    },
    {
        "name": "gym",
        "topic": "fitness",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [have|has] a gym membership.", "{S} [am|is] a member of a gym."],
        "neg": ["{S} [don't|doesn't] have a gym membership.", "{S} [am not|isn't] a member of any gym."],
        "cneg": ["!{S} cancelled the gym membership.", "{S} no longer [have|has] a gym membership."],
        "cpos": ["!{S} signed up for a gym membership."],
    },
    {
        "name": "drive_work",
        "topic": "car",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [drive|drives] to work.", "{S} [go|goes] to work by car."],
        "neg": ["{S} [don't|doesn't] drive to work.", "{S} never [take|takes] the car to work."],
        "cneg": ["{S} [cycle|cycles] to work instead of driving now.", "{S} no longer [drive|drives] to work."],
        "cpos": ["{S} [drive|drives] to work now."],
    },
    {
        "name": "wfh",
        "topic": "work",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [work|works] from home.", "{S} [do|does] the job from home."],
        "neg": ["{S} [don't|doesn't] work from home.", "{S} [work|works] on site, never from home."],
        "cneg": ["!{S} [am|is] back in the office full time, no more working from home."],
        "cpos": ["{S} [work|works] from home now.", "!{S} switched to working from home."],
    },
    {
        "name": "own_car",
        "topic": "car",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [own|owns] a car.", "{S} [have|has] a car."],
        "neg": ["{S} [don't|doesn't] own a car.", "{S} [don't|doesn't] have a car."],
        "cneg": ["!{S} sold the car and [don't|doesn't] have one anymore."],
        "cpos": ["!{S} bought a car last month.", "{S} [have|has] a car now."],
    },
    {
        "name": "has_dog",
        "topic": "pets",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [have|has] a dog.", "there's a dog in {P} household."],
        "neg": ["{S} [don't|doesn't] have a dog.", "there's no dog in {P} household."],
        "cneg": [],
        "cpos": ["!{S} adopted a dog last month.", "{S} [have|has] a dog now."],
    },
    {
        "name": "glasses",
        "topic": "health",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [wear|wears] glasses.", "{S} [wear|wears] glasses every day."],
        "neg": ["{S} [don't|doesn't] wear glasses.", "{S} never [wear|wears] glasses."],
        "cneg": ["!{S} had laser eye surgery, so no more glasses."],
        "cpos": ["{S} [need|needs] glasses now.", "!{S} just got a first pair of glasses."],
    },
    {
        "name": "band",
        "topic": "hobby",
        "kind": "person",
        "k": "fact",
        "pos": ["{S} [play|plays] in a band.", "{S} [am|is] in a band."],
        "neg": ["{S} [don't|doesn't] play in a band.", "{S} [am not|isn't] in any band."],
        "cneg": ["!{S} left the band.", "{S} [am not|isn't] in a band anymore."],
        "cpos": ["!{S} joined a band this spring."],
    },
    {
        "name": "visa_needed",
        "topic": "travel",
        "kind": "person",
        "k": "fact",
        "extra": "COUNTRY",
        "pos": ["{S} [need|needs] a visa for {COUNTRYX}."],
        "neg": ["{S} [don't|doesn't] need a visa for {COUNTRYX}."],
        "cneg": ["{S} no longer [need|needs] a visa for {COUNTRYX} since the rules changed."],
        "cpos": ["since the rules changed, {S} now [need|needs] a visa for {COUNTRYX}."],
    },
    {
        "name": "appl_works",
        "topic": "home",
        "kind": "appl",
        "k": "observation",
        "pos": ["the {APPL} is working fine.", "the {APPL} works perfectly."],
        "neg": ["the {APPL} isn't working.", "the {APPL} is broken."],
        "cneg": ["!the {APPL} has stopped working.", "!the {APPL} broke down this morning."],
        "cpos": ["the {APPL} is fixed now.", "!the repair person fixed the {APPL}."],
    },
    {
        "name": "appl_warranty_ok",
        "topic": "home",
        "kind": "appl",
        "k": "fact",
        "pos": ["the {APPL} is still under warranty.", "the {APPL} is covered by the warranty."],
        "neg": ["the {APPL} isn't under warranty.", "the {APPL} isn't covered by any warranty."],
        "cneg": ["!the {APPL} warranty has expired.", "the {APPL} is no longer under warranty."],
        "cpos": [],
    },
    {
        "name": "subscribed",
        "topic": "finance",
        "kind": "service",
        "k": "fact",
        "pos": ["I subscribe to {SVC}.", "I have a {SVC} subscription."],
        "neg": ["I don't subscribe to {SVC}.", "I don't have a {SVC} subscription."],
        "cneg": ["!I cancelled my {SVC} subscription.", "I'm no longer subscribed to {SVC}."],
        "cpos": ["!I signed up for {SVC}.", "I subscribe to {SVC} now."],
    },
    {
        "name": "garden_veg",
        "topic": "garden",
        "kind": "plant",
        "k": "fact",
        "pos": ["I grow {PLANT} in the garden.", "the garden has {PLANT} in it."],
        "neg": ["I don't grow {PLANT}.", "there are no {PLANT} in the garden."],
        "cneg": ["!I pulled up all the {PLANT}.", "I don't grow {PLANT} anymore."],
        "cpos": ["!I planted {PLANT} this spring."],
    },
]


def neg_extra(item: NegItem, r: random.Random) -> dict[str, str]:
    x = item.get("extra")
    if x == "ALG":
        pl, sg = r.choice(ALLERGENS)
        return {"ALG": pl, "ALG_SG": sg}
    if x == "MED":
        return {"MEDX": r.choice([*MED_NAMES, "antihistamines", "blood thinners", "iron tablets", "the pill"])}
    if x == "COUNTRY":
        return {"COUNTRYX": r.choice(COUNTRIES)[0]}
    return {}


# ---------------------------------------------------------------------------
# Tasks (loop-done) and open questions (question-answered)
# ---------------------------------------------------------------------------


class Task(TypedDict):
    topic: str
    vary: str | None  # the loop field that tells two tasks apart
    task: list[str]
    still: list[str]
    done: list[str]
    cancel: list[str]


class Question(TypedDict):
    topic: str
    k_b: str  # kind of the answer
    q: list[str]
    still: list[str]
    ans: list[str]


TASKS: list[Task] = [
    {
        "topic": "pets",
        "vary": "PET",
        "task": ["Task: book the vet for {PET}.", "To do: get {PET} booked in at the vet."],
        "still": ["Still need to book the vet for {PET}.", "Reminder: {PET} still needs a vet appointment booking."],
        "done": [
            "Booked the vet for {PET} on {DAY} at {TIME}.",
            "{PET} is booked in at the vet for {DAY}.",
            "Done: {PET}'s vet appointment is sorted for {DAY} morning.",
        ],
        "cancel": ["No need to book the vet for {PET} anymore; the limp cleared up on its own."],
    },
    {
        "topic": "travel",
        "vary": None,
        "task": ["Task: renew my passport.", "To do: send off the passport renewal form."],
        "still": ["Passport renewal is still on my to-do list.", "I still haven't sent off the passport renewal."],
        "done": [
            "I renewed my passport; the new one arrived today.",
            "Passport renewal is done.",
            "Done: the passport renewal went through.",
        ],
        "cancel": [],
    },
    {
        "topic": "home",
        "vary": None,
        "task": [
            "Task: call the landlord about the leaking tap.",
            "To do: ring the landlord about the kitchen tap leak.",
        ],
        "still": [
            "Still haven't called the landlord about the tap.",
            "The landlord still needs a call about the leaking tap.",
        ],
        "done": [
            "Called the landlord; a plumber is coming on {DAY}.",
            "Spoke to the landlord about the tap, and it's getting fixed {DAY}.",
        ],
        "cancel": ["The tap stopped leaking, so I won't call the landlord after all."],
    },
    {
        "topic": "family",
        "vary": "PERSON",
        "task": ["Task: buy a birthday present for {PERSON}.", "To do: find a birthday gift for {PERSON}."],
        "still": [
            "I still need to get {PERSON} a birthday present.",
            "Still haven't found a birthday present for {PERSON}.",
        ],
        "done": ["Bought {PERSON} {aGIFT} for the birthday.", "Got {PERSONP} birthday present sorted: {aGIFT}."],
        "cancel": ["{PERSON} asked for no presents this year, so I'm skipping the gift."],
    },
    {
        "topic": "finance",
        "vary": "SVC",
        "task": ["Task: cancel the {SVC} subscription.", "To do: cancel {SVC} before the next charge."],
        "still": ["Reminder: {SVC} still needs cancelling.", "I still haven't cancelled {SVC}."],
        "done": [
            "Cancelled {SVC}; the last charge is next week.",
            "{SVC} is cancelled.",
            "Done: my {SVC} subscription is cancelled.",
        ],
        "cancel": ["Decided to keep {SVC} after all, so I'm not cancelling it."],
    },
    {
        "topic": "shopping",
        "vary": "OITEM",
        "task": ["Task: return the {OITEM} to {SHOP}.", "To do: send the {OITEM} back to {SHOP}."],
        "still": ["The {OITEM} still needs to go back to {SHOP}.", "Still need to return the {OITEM} to {SHOP}."],
        "done": ["Returned the {OITEM} to {SHOP} this morning.", "The {OITEM} went back to {SHOP}; refund pending."],
        "cancel": ["I'm keeping the {OITEM} after all, so no return to {SHOP}."],
    },
    {
        "topic": "finance",
        "vary": "BILL",
        "task": ["To do: pay the {BILL} bill.", "Task: pay the {BILL} bill before the due date."],
        "still": ["The {BILL} bill still needs paying.", "Still haven't paid the {BILL} bill."],
        "done": ["Paid the {BILL} bill today.", "Done: the {BILL} bill is paid."],
        "cancel": ["The {BILL} bill is on direct debit, so there's nothing to pay by hand."],
    },
    {
        "topic": "appointments",
        "vary": "PERSON",
        "task": ["Task: book a dentist check-up for {PERSON}.", "To do: get {PERSON} a dentist check-up."],
        "still": [
            "{PERSON} still needs a dentist check-up booked.",
            "Still haven't booked {PERSONP} dentist check-up.",
        ],
        "done": [
            "{PERSONP} dentist check-up is booked for {DAY} at {TIME}.",
            "Booked {PERSON} in with the dentist for {DAY}.",
        ],
        "cancel": ["{PERSON} booked the dentist check-up without me, so that's off my list."],
    },
    {
        "topic": "health",
        "vary": "PERSON",
        "task": ["Task: pick up {PERSONP} prescription from the pharmacy.", "To do: collect {PERSONP} prescription."],
        "still": ["{PERSONP} prescription still needs collecting.", "Still need to pick up {PERSONP} prescription."],
        "done": ["Picked up {PERSONP} prescription.", "Done: collected {PERSONP} prescription this afternoon."],
        "cancel": ["{PERSON} collected the prescription, so I don't need to."],
    },
    {
        "topic": "car",
        "vary": None,
        "task": ["Task: get the car serviced before the road trip.", "To do: book the car in for a service."],
        "still": ["The car still needs its service before the road trip.", "Still haven't booked the car service."],
        "done": [
            "The car was serviced on {DAY}, and everything is fine.",
            "Done: the car service is booked for {DAY}.",
        ],
        "cancel": ["Skipping the car service; we're taking the train for the trip."],
    },
    {
        "topic": "travel",
        "vary": "PERSON",
        "task": [
            "Task: send {PERSON} the photos from the {CITY} trip.",
            "To do: share the {CITY} photos with {PERSON}.",
        ],
        "still": ["Still need to send {PERSON} the {CITY} photos.", "{PERSON} is still waiting for the {CITY} photos."],
        "done": ["Sent {PERSON} the {CITY} photos.", "Done: shared the {CITY} photo album with {PERSON}."],
        "cancel": [],
    },
    {
        "topic": "travel",
        "vary": "CITY",
        "task": ["Task: book a hotel in {CITY} for the trip.", "To do: find somewhere to stay in {CITY}."],
        "still": ["We still need a hotel in {CITY}.", "Still haven't booked anywhere to stay in {CITY}."],
        "done": ["Booked {HOTEL} in {CITY}.", "Done: we're booked into {HOTEL} in {CITY}."],
        "cancel": ["We called off the {CITY} trip, so no hotel is needed."],
    },
    {
        "topic": "pets",
        "vary": "PET",
        "task": ["Task: order more food for {PET}.", "To do: restock {PET}'s food."],
        "still": ["{PET}'s food still needs ordering.", "Still need to order more food for {PET}."],
        "done": ["Ordered a big bag of {PETFOOD} for {PET}; it arrives {DAY}.", "Done: {PET}'s food is ordered."],
        "cancel": [],
    },
    {
        "topic": "home",
        "vary": None,
        "task": ["Task: sort out the slow wifi.", "To do: fix the wifi in the back bedroom."],
        "still": ["Still need to sort out the slow wifi.", "The wifi problem still needs fixing."],
        "done": [
            "The wifi is fixed; the router just needed a reset.",
            "Done: new mesh extender installed and the wifi is fine.",
        ],
        "cancel": [],
    },
    {
        "topic": "hobby",
        "vary": "CLASS",
        "task": ["Task: sign up for the {CLASS} class.", "To do: enrol in the {CLASS} course at the community centre."],
        "still": ["Still haven't signed up for the {CLASS} class.", "The {CLASS} class sign-up is still pending."],
        "done": ["Signed up for the {CLASS} class; it starts on {DAY}.", "Done: I'm enrolled in the {CLASS} class."],
        "cancel": ["Decided against the {CLASS} class for now."],
    },
    {
        "topic": "finance",
        "vary": "POL",
        "task": ["Task: renew the {POL} before it lapses.", "To do: sort out the {POL} renewal."],
        "still": ["The {POL} renewal still needs doing.", "Still haven't renewed the {POL}."],
        "done": ["Renewed the {POL} for another year.", "Done: the {POL} is renewed."],
        "cancel": ["Not renewing the {POL}; the cover isn't needed anymore."],
    },
    {
        "topic": "family",
        "vary": "PERSON",
        "task": ["Task: write a thank-you card for {PERSON}.", "To do: post a thank-you note to {PERSON}."],
        "still": [
            "Still need to write {PERSON} a thank-you card.",
            "The thank-you card for {PERSON} still isn't written.",
        ],
        "done": ["Posted the thank-you card to {PERSON}.", "Done: {PERSON} got the thank-you card."],
        "cancel": [],
    },
    {
        "topic": "finance",
        "vary": None,
        "task": [
            "Task: set up a monthly transfer of {MONEY} into savings.",
            "To do: automate {MONEY} a month into the savings account.",
        ],
        "still": [
            "The {MONEY} savings transfer still needs setting up.",
            "Still haven't set up the {MONEY} monthly savings transfer.",
        ],
        "done": ["The {MONEY} monthly savings transfer is set up.", "Done: {MONEY} now goes into savings every month."],
        "cancel": ["Dropped the idea of a {MONEY} savings transfer for now."],
    },
]

QUESTIONS: list[Question] = [
    {
        "topic": "travel",
        "k_b": "plan",
        "q": ["Open question: which hotel should we book in {CITY}?", "Which hotel should we go for in {CITY}?"],
        "still": ["Still haven't picked a hotel for {CITY}.", "We still need to decide on a hotel in {CITY}."],
        "ans": ["We booked {HOTEL} in {CITY}.", "Decided on {HOTEL} for {CITY}."],
    },
    {
        "topic": "travel",
        "k_b": "fact",
        "q": ["What time does {PERSONP} flight land?", "Open question: when does {PERSONP} flight get in?"],
        "still": ["I still don't know when {PERSONP} flight lands."],
        "ans": ["{PERSONP} flight lands at {FTIME}.", "{PERSON} gets in at {FTIME}."],
    },
    {
        "topic": "pets",
        "k_b": "fact",
        "q": ["Which vet should we use for {PET}?", "Open question: which vet practice for {PET}?"],
        "still": ["Still haven't chosen a vet for {PET}."],
        "ans": ["We're taking {PET} to {VET}.", "{PET} is registered at {VET}."],
    },
    {
        "topic": "dates",
        "k_b": "fact",
        "q": ["When is {PERSONP} birthday?", "Open question: what date is {PERSONP} birthday?"],
        "still": ["I still don't know when {PERSONP} birthday is."],
        "ans": ["{PERSONP} birthday is on {DATE}.", "{PERSON} was born on {DATE}."],
    },
    {
        "topic": "food",
        "k_b": "fact",
        "q": ["Does {PERSON} eat fish?", "Open question: is fish okay for {PERSON}?"],
        "still": ["Still not sure whether {PERSON} eats fish."],
        "ans": ["{PERSON} doesn't eat fish.", "{PERSON} eats fish, no problem."],
    },
    {
        "topic": "health",
        "k_b": "fact",
        "q": ["Is {PERSON} allergic to anything?", "Open question: does {PERSON} have any allergies?"],
        "still": ["Still need to find out about {PERSONP} allergies."],
        "ans": ["{PERSON} is allergic to {ALG}.", "{PERSON} has no allergies at all."],
    },
    {
        "topic": "finance",
        "k_b": "fact",
        "q": [
            "Open question: which bank should I open a savings account with?",
            "Which bank is best for a savings account?",
        ],
        "still": ["Still undecided on which bank to use for savings."],
        "ans": ["I opened a savings account with {BANK}.", "Went with {BANK} for the savings account."],
    },
    {
        "topic": "food",
        "k_b": "plan",
        "q": [
            "Where should we go for {PERSONP} birthday dinner?",
            "Open question: which restaurant for {PERSONP} birthday dinner?",
        ],
        "still": ["Still haven't picked a restaurant for {PERSONP} birthday dinner."],
        "ans": [
            "We booked {RESTAURANT} for {PERSONP} birthday dinner.",
            "{PERSONP} birthday dinner is at {RESTAURANT}.",
        ],
    },
    {
        "topic": "finance",
        "k_b": "fact",
        "q": ["How much does {SVC} cost per month?", "Open question: what's the monthly price of {SVC}?"],
        "still": ["Still need to check what {SVC} costs."],
        "ans": ["{SVC} costs {MONEYS} a month.", "I checked: {SVC} is {MONEYS} a month."],
    },
    {
        "topic": "finance",
        "k_b": "fact",
        "q": ["When is the {BILL} bill due?", "Open question: what day does the {BILL} bill come out?"],
        "still": ["Still not sure when the {BILL} bill is due."],
        "ans": ["The {BILL} bill is due on the {DOM}.", "The {BILL} bill comes out on the {DOM}."],
    },
    {
        "topic": "travel",
        "k_b": "plan",
        "q": [
            "Should we go to {CITY} or {CITY2} in {MONTH}?",
            "Open question: {CITY} or {CITY2} for the {MONTH} trip?",
        ],
        "still": ["Still torn between {CITY} and {CITY2} for {MONTH}."],
        "ans": ["We're going to {CITY} in {MONTH}.", "Decided: {CITY2} it is for {MONTH}."],
    },
    {
        "topic": "travel",
        "k_b": "fact",
        "q": ["Do I need a visa for {COUNTRYX}?", "Open question: is a visa required for {COUNTRYX}?"],
        "still": ["Still need to check whether I need a visa for {COUNTRYX}."],
        "ans": ["I don't need a visa for {COUNTRYX}.", "I do need a visa for {COUNTRYX}, so I've applied."],
    },
    {
        "topic": "hobby",
        "k_b": "fact",
        "q": ["Which day is {PERSONP} {CLASS} class?", "Open question: when is {PERSONP} {CLASS} class?"],
        "still": ["Still don't know which day {PERSONP} {CLASS} class is."],
        "ans": ["{PERSONP} {CLASS} class is on {WEEKDAY}s.", "{PERSON} goes to {CLASS} every {WEEKDAY}."],
    },
    {
        "topic": "hobby",
        "k_b": "fact",
        "q": [
            "Which book should the book club read in {MONTH}?",
            "Open question: what's the book club pick for {MONTH}?",
        ],
        "still": ["The book club still hasn't chosen a book for {MONTH}."],
        "ans": ["The book club pick for {MONTH} is {BOOK}.", "For {MONTH}, the book club is reading {BOOK}."],
    },
    {
        "topic": "home",
        "k_b": "fact",
        "q": ["When does the {APPL} warranty run out?", "Open question: is the {APPL} still under warranty?"],
        "still": ["Still need to check the {APPL} warranty."],
        "ans": ["The {APPL} warranty runs until {MONTHYEAR}.", "The {APPL} warranty ran out last year."],
    },
    {
        "topic": "travel",
        "k_b": "fact",
        "q": ["Where is {PERSON} staying in {CITY}?", "Open question: which hotel is {PERSON} in, in {CITY}?"],
        "still": ["Still don't know where {PERSON} is staying in {CITY}."],
        "ans": ["{PERSON} is staying at {HOTEL} in {CITY}.", "{PERSONP} hotel in {CITY} is {HOTEL}."],
    },
    {
        "topic": "home",
        "k_b": "fact",
        "q": ["Who is the new landlord?", "Open question: who owns the flat now that it's been sold?"],
        "still": ["Still don't know who the landlord is since the sale."],
        "ans": ["The landlord is {LANDLORD}.", "The flat now belongs to {LANDLORD}."],
    },
]


def loop_fields(r: random.Random, owner: Owner | None = None) -> dict[str, Any]:
    o = owner or rand_owner(r, "other")
    m: dict[str, Any] = {
        "PET": r.choice(PET_NAMES),
        "PERSON": o.forms[0]["S"],
        "PERSONP": o.forms[0]["P"],
        "SVC": r.choice(SERVICES),
        "OITEM": r.choice(ITEMS),
        "SHOP": r.choice(SHOPS),
        "BILL": r.choice(BILLS),
        "CITY": r.choice(CITIES),
        "DAY": r.choice(WEEKDAYS[:6]),
        "HOTEL": r.choice(HOTELS),
        "CLASS": r.choice(CLASSES),
        "POL": r.choice(POLICIES),
        "VET": r.choice(VETS),
        "ALG": r.choice(ALLERGENS)[0],
        "BANK": r.choice(BANKS),
        "RESTAURANT": r.choice(RESTAURANTS),
        "DOM": ordinal(r.randint(1, 28)),
        "MONTH": r.choice(MONTHS),
        "COUNTRYX": r.choice(COUNTRIES)[0],
        "BOOK": r.choice(BOOKS),
        "APPL": r.choice(APPLIANCES),
        "PETFOOD": r.choice(PET_FOODS),
        "WEEKDAY": r.choice(WEEKDAYS),
        "LANDLORD": r.choice(LANDLORDS),
    }
    m["_owner"] = o
    g = r.choice(GIFTS)
    m["aGIFT"] = f"{article(g)} {g}"
    m["CITY2"] = r.choice([c for c in CITIES if c != m["CITY"]])
    h, mi = r.randint(8, 17), r.choice([0, 0, 15, 30, 30, 45])
    m["TIME"] = r.choice(_time_renders(h, mi))  # office hours (vet, dentist)
    h, mi = r.randint(6, 23), r.choice([0, 10, 15, 20, 30, 40, 45, 50])
    m["FTIME"] = r.choice(_time_renders(h, mi))  # flights
    amt = r.randrange(50, 800, 25)
    m["MONEY"] = r.choice([f"€{amt}", f"{amt} euros"])
    m["MONEYS"] = f"€{r.randrange(2, 25)}.99"
    mm, dd = r.randrange(12), r.randint(1, 28)
    m["DATE"] = r.choice([f"{MONTHS[mm]} {dd}", f"{dd} {MONTHS[mm]}"])
    m["MONTHYEAR"] = f"{r.choice(MONTHS)} {r.randint(2025, 2031)}"
    return m


def fill(tmpl: str, m: Mapping[str, object]) -> str:
    return PH_RE.sub(lambda mm: str(m[mm.group(1)]), tmpl)


# ---------------------------------------------------------------------------
# Chatty lines (topic-shift-chatty) and long-turn fillers
# ---------------------------------------------------------------------------

CHATTY = [
    ("By the way, I just finished another 1,000-piece jigsaw puzzle.", "hobby"),
    ("By the way, I just got back from a long walk along the canal.", "misc"),
    ("Oh, I baked another loaf of sourdough this morning.", "food"),
    ("Also, it's been raining all day here, so I stayed in.", "weather"),
    ("By the way, I just watched another episode of that baking show.", "media"),
    ("Another busy day at home, but I managed a nap.", "misc"),
    ("By the way, I just tried a café around the corner and it was lovely.", "food"),
    ("Also, I found a really nice podcast about old maps.", "media"),
    ("By the way, I just rearranged the bookshelves in the living room.", "home"),
    ("Oh, and I bumped into an old school friend at the market.", "social"),
    ("By the way, the sunset tonight was incredible.", "weather"),
    ("Also, I just finished another crossword without any help.", "hobby"),
    ("By the way, I made pancakes again this morning.", "food"),
    ("Another sunny morning, so I had breakfast on the balcony.", "weather"),
    ("By the way, I just learned that octopuses have three hearts.", "trivia"),
    ("Oh, I watched the football with friends last night, what a match.", "sport"),
    ("By the way, I just repotted a few of the succulents.", "garden"),
    ("Also, I tried a recipe with lentils and it actually worked.", "food"),
    ("Another evening of rain, so I'm catching up on letters.", "misc"),
    ("By the way, I just finished a really good documentary about volcanoes.", "media"),
    ("Also, I'm thinking about learning to knit this winter.", "hobby"),
    ("By the way, I just discovered a great secondhand bookshop downtown.", "hobby"),
    ("Oh, and I spent an hour sorting old photos from school.", "misc"),
    ("By the way, I just bought another mug I definitely didn't need.", "shopping"),
    ("Also, the birds at the feeder are back in big numbers.", "garden"),
    ("By the way, I just spent the afternoon at the lido.", "sport"),
    ("Oh, the neighbours had a barbecue and the whole street smelled amazing.", "social"),
    ("By the way, I just cleaned all the windows, which feels great.", "home"),
    ("Also, I listened to a whole album on vinyl for the first time in ages.", "media"),
    ("Another quiet Sunday, just tea and the radio.", "misc"),
    ("By the way, I just went to a pub quiz and we came third.", "social"),
    ("Oh, I saw a heron by the river on my way back.", "misc"),
    ("By the way, I just had the best ice cream of the summer.", "food"),
    ("Also, there was a brilliant thunderstorm last night.", "weather"),
    ("By the way, I just taught myself a card trick.", "trivia"),
    ("Another lazy morning; I didn't get up until ten.", "misc"),
    ("Also, I went to a little gallery opening and loved the prints.", "social"),
    ("By the way, I just fixed the wobbly leg on the kitchen chair.", "home"),
    ("Oh, and I started a jigsaw of the night sky.", "hobby"),
    ("By the way, I just saw the first snowdrops of the year.", "garden"),
]

GEN_OPEN = [
    "I'm trying to get my head around everything I need to do before the end of the month.",
    "It has been one of those weeks where everything happens at once, so bear with me.",
    "I'm sitting down with a cup of tea to sort out a few loose ends tonight.",
    "Okay, I have a few things rattling around my head and I want them written down somewhere.",
    "Sorry for the long message, I'm catching up on a bunch of small admin things.",
    "I'm planning a dinner party this weekend and trying to keep track of who is coming.",
    "We had a lovely long lunch with friends today and it reminded me to sort a few things out.",
    "I'm on the train home and have a quiet moment to think.",
    "Hope you're ready for a slightly rambling message from me.",
    "I've been meaning to tell you a few things for a while.",
    "Right, coffee in hand, let's get through my list.",
    "I'm writing this from the sofa with a blanket, so forgive any typos.",
    "I've got a free evening at last after a long and slightly chaotic week, and I want to use it to get all "
    "the little bits of life admin out of my head and into one place where I can find them again.",
    "So I was sitting in the garden this afternoon with a pot of tea, trying to make sense of the calendar for "
    "the next couple of months, and I realised how many small details I keep carrying around in my head.",
    "Bear with me, because this is going to be one of my long, wandering messages where I jump between "
    "topics, but I'd really like you to help me keep the important bits straight.",
]
DOM_OPEN = {
    "family": [
        "I'm putting together a calendar of family birthdays and visits for the year.",
        "The family group chat has been busy all day and I want to keep the details straight.",
        "I'm trying to plan a get-together for everyone this summer.",
    ],
    "home": [
        "I'm doing a bit of household admin while the laundry runs.",
        "The flat is a bit of a mess and I'm trying to get organised.",
        "I spent the morning pottering around the house and making lists.",
    ],
    "health": [
        "I'm trying to be better about keeping track of my health stuff.",
        "I've got a list of health admin that I keep putting off.",
        "I want all the medical bits in one place so I stop forgetting them.",
    ],
    "travel": [
        "I'm in the middle of packing and my head is spinning a little.",
        "I'm putting together an itinerary so nothing slips through the cracks.",
        "Travel planning always takes me longer than I expect.",
    ],
    "finance": [
        "I'm going through my budget spreadsheet this evening.",
        "I'm sorting out money stuff so that the next few months are less stressful.",
        "I've been looking at my bank statements with a strong cup of coffee.",
    ],
    "hobby": [
        "I've had a really relaxing weekend with my hobbies.",
        "I spent the afternoon on my projects and lost track of time.",
        "My evenings are mostly about my hobbies at the moment, which I love.",
    ],
    "shopping": [
        "I've got a few parcels and returns to keep track of.",
        "I did a bit too much online shopping last week, so I need to stay organised.",
        "The hallway is full of cardboard boxes, which says it all.",
    ],
    "pets": [
        "The animals have been keeping me busy all morning.",
        "I'm sorting out pet admin today, which is never glamorous.",
        "Pet life is chaotic as usual, in the best way.",
    ],
}
TOPIC_FILL = {
    "languages": "family",
    "residence": "family",
    "work": "family",
    "dates": "family",
    "family": "family",
    "pets": "pets",
    "food": "family",
    "colour": "family",
    "car": "home",
    "health": "health",
    "appointments": "health",
    "fitness": "health",
    "home": "home",
    "garden": "home",
    "travel": "travel",
    "finance": "finance",
    "hobby": "hobby",
    "shopping": "shopping",
    "misc": "hobby",
    "weather": "home",
    "media": "hobby",
    "social": "family",
    "trivia": "hobby",
    "sport": "health",
}
MIDDLE = [
    "There is a lot going on, but it's mostly good stuff.",
    "I keep meaning to write these things down and then forgetting.",
    "My memory for details is terrible when I'm tired.",
    "It's all quite manageable if I take it one step at a time.",
    "The weather has been grey, which doesn't help my motivation.",
    "I'd rather have it all noted somewhere than keep it in my head.",
    "Half of this is just me thinking out loud, to be honest.",
    "I know none of this is urgent on its own, but when all the little things pile up together I start "
    "losing track, and that's usually when I forget something that actually matters to someone.",
    "A friend of mine keeps teasing me about my lists, but honestly they are the only reason anything gets "
    "done around here, so I'm sticking with the system even if it looks a bit obsessive.",
]
CLOSERS = [
    "Can you keep that in mind for later?",
    "Any tips on staying organised with all this?",
    "Could you remind me about it next week?",
    "What would you suggest I focus on first?",
    "Any recipe ideas for the weekend, by the way?",
    "Thanks for keeping track of all this for me.",
    "Let me know if you need anything else from me.",
    "What do you think I'm missing?",
    "Could you put together a short checklist for me?",
    "Does that all make sense?",
    "Anyway, how should I plan the rest of my week?",
    "Any ideas for a relaxing evening after all that?",
    "If you can, could you pull all of this together into a short summary I can glance at on my phone "
    "later, ideally with the most time-sensitive things at the top?",
    "Anyway, that's enough from me for one message, so let me know if anything here looks off or if there's "
    "something I should be thinking about that I've completely overlooked.",
]
CONNECTORS = [
    "By the way, ",
    "Oh, and ",
    "Also, ",
    "Just so you know, ",
    "One more thing: ",
    "Oh, before I forget, ",
]
# neutral framing for very short statements (not update cues; used for every relation)
FRAME_PRE = [
    "Worth remembering: ",
    "Something to note: ",
    "FYI, ",
    "Just so you know, ",
    "Note for later: ",
    "Good to know: ",
]
FRAME_POST = [
    ", in case it comes up",
    ", just so it's written down",
    ", if that's useful to know",
    ", for future reference",
    ", for when it matters",
]


# ---------------------------------------------------------------------------
# Building blocks for pairs
# ---------------------------------------------------------------------------


def parse_marks(t: str) -> tuple[str, set[str]]:
    marks = set()
    while t and t[0] in "!<>":
        marks.add(t[0])
        t = t[1:]
    return t, marks


def has_old(t: str) -> bool:
    return "{OLD" in t or "{aOLD" in t


def subj_for(attr: AttrSpec, r: random.Random, owner: Owner | None = None) -> Subj:
    return make_subject(attr["kind"], r, attr["owners"], owner=owner, noroles=attr["noroles"])


def rform(s: Subj, r: random.Random) -> int:
    return r.randrange(len(s.forms))


def base_raw(
    attr: AttrSpec, s: Subj, r: random.Random, val: Val, form: int | None = None, tmpl: str | None = None
) -> str:
    if form is None:
        form = rform(s, r)
    return render(tmpl or r.choice(attr["base"]), s, form, r, val=val)


def other_val(
    attr: AttrSpec, s: Subj, v: Val, r: random.Random, cond: Callable[[Val], bool] | None = None
) -> Val | None:
    for _ in range(80):
        v2 = attr["vt"](r, s)
        if v2.canon != v.canon and (cond is None or cond(v2)):
            return v2
    return None


# wording that reports an event of change; never used when the value stays the same
EVENT_RE = re.compile(
    r"\b(rescheduled|moved|changed|adjusted|reset|respray|gave up|advice|switched|replaced|extended|"
    r"cut|stopped|quit|started|sold|new|wrong|correction|actually)\b",
    re.I,
)


# a way to cue a statement: ("t", cued template, marks) or ("p", prefix, marks)
CueOption: TypeAlias = tuple[str, str, set[str]]


def cue_options(attr: AttrSpec, same: bool) -> list[CueOption]:
    opts: list[CueOption] = []
    for t in attr["cued"]:
        t2, mk = parse_marks(t)
        if same and (mk or has_old(t2) or EVENT_RE.search(t2)):
            continue
        opts.append(("t", t2, mk))
    if attr["prefix"]:
        for p, ok in PREFIXES[attr["prefix"]]:
            p2, mk = parse_marks(p)
            if same and not ok:
                continue
            opts.append(("p", p2, mk))
    return opts


def cued_raw(
    attr: AttrSpec,
    s: Subj,
    r: random.Random,
    new: Val,
    old: Val | None,
    same: bool = False,
    form: int | None = None,
    opt: CueOption | None = None,
) -> str | None:
    """Render a cued statement of `new` (old = the previous value, for {OLD})."""
    if form is None:
        form = rform(s, r)
    opts = cue_options(attr, same)
    if not opts:
        return None
    if opt is None:
        tmpl_opts = [o for o in opts if o[0] == "t"]
        pre_opts = [o for o in opts if o[0] == "p"]
        opt = r.choice(tmpl_opts) if tmpl_opts and (not pre_opts or r.random() < 0.68) else r.choice(pre_opts)
    typ, t, mk = opt
    if ">" in mk and not (old is not None and new.num is not None and old.num is not None and new.num > old.num):
        return None
    if "<" in mk and not (old is not None and new.num is not None and old.num is not None and new.num < old.num):
        return None
    if typ == "t":
        return render(t, s, form, r, val=new, old=old)
    raw = base_raw(attr, s, r, new, form=form)
    out = t.replace("{B}", cap(raw)).replace("{b}", raw)
    out = out.replace("{WHEN}", r.choice(WHEN_PAST)).replace("{WHEN2}", r.choice(WHEN_FUT))
    return out


def pick_cued_change(
    attr: AttrSpec, s: Subj, r: random.Random, v1: Val, form: int | None = None
) -> tuple[str, Val] | None:
    """A cued statement of a changed value; returns (raw, v2) or None."""
    opts = cue_options(attr, same=False)
    if not opts:
        return None
    tmpl_opts = [o for o in opts if o[0] == "t"]
    pre_opts = [o for o in opts if o[0] == "p"]
    opt = r.choice(tmpl_opts) if tmpl_opts and (not pre_opts or r.random() < 0.68) else r.choice(pre_opts)
    mk = opt[2]

    def cond(x: Val) -> bool:
        if ">" in mk:
            return x.num is not None and v1.num is not None and x.num > v1.num
        if "<" in mk:
            return x.num is not None and v1.num is not None and x.num < v1.num
        return True

    v2 = other_val(attr, s, v1, r, cond)
    if v2 is None:
        return None
    raw = cued_raw(attr, s, r, v2, v1, form=form, opt=opt)
    return (raw, v2) if raw else None


SENT_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z'\"])")


def n_sentences(text: str) -> int:
    return len([x for x in SENT_RE.split(text.strip()) if x])


COLON_START = re.compile(r"^[A-Za-z]+( [a-z]+){0,2}: ")


PROPER = set(ALL_NAMES) | set(PET_NAMES) | set(SERVICES) | {"Dr."}


def connectable(raw: str) -> bool:
    """Can the raw statement follow "By the way, " without re-capitalisation issues?"""
    if COLON_START.match(raw):
        return False
    first = raw.split(" ", 1)[0]
    return raw[:1].islower() or raw.startswith(("I ", "I'")) or first in PROPER or first.replace("'s", "") in PROPER


def frame_short(raw: str, r: random.Random) -> str:
    """Give a very short statement a neutral frame so that few texts are under 6 words."""
    if not connectable(raw) or not raw.endswith("."):
        return raw
    n = len(raw.split())
    if n >= 9 or (n >= 6 and r.random() > 0.08) or (n < 6 and r.random() > 0.8):
        return raw
    use_pre = r.random() < 0.5
    out = raw
    if use_pre or n <= 3:
        out = r.choice(FRAME_PRE) + out
    if not use_pre or len(out.split()) < 6:
        out = out[:-1] + r.choice(FRAME_POST) + "."
    return out


def longify(raw: str, topic: str, r: random.Random) -> str:
    """Wrap one statement in a chat-like turn of 2-5 sentences, 40-150 words."""
    cat = TOPIC_FILL.get(topic, "family")
    pool = GEN_OPEN + DOM_OPEN[cat]
    core_n = n_sentences(cap(raw))
    for _ in range(60):
        if r.random() < 0.2:
            core = cap(raw)
            sents = [core, *r.sample(MIDDLE, r.choice([0, 1])), *r.sample(CLOSERS, r.choice([1, 1, 2]))]
            core_idx = 0
        else:
            opens = r.sample(pool, r.choice([1, 1, 2]))
            core = r.choice(CONNECTORS) + raw if connectable(raw) and r.random() < 0.7 else cap(raw)
            sents = [*opens, core, *r.sample(CLOSERS, r.choice([0, 1, 1, 2]))]
            core_idx = len(opens)
        while sum(len(x.split()) for x in sents) < 40 and len(sents) + core_n - 1 < 5:
            mid = r.choice(MIDDLE)
            if mid in sents:
                break
            pos = r.choice([core_idx, core_idx + 1])
            sents.insert(pos, mid)
            if pos <= core_idx:
                core_idx += 1
        text = " ".join(sents)
        nw = len(text.split())
        ns = len(sents) + core_n - 1
        if 40 <= nw <= 150 and 2 <= ns <= 5:
            return text
    raise RuntimeError("cannot build long turn for: " + raw)


P_LONG = 0.385
LOOP_FRAMES = {"loop-done", "question-answered", "loop-restated"}


class LiteralPair(TypedDict):
    a: str
    b: str
    relation: str
    frame: str
    kind_a: str
    kind_b: str


class Pair(LiteralPair):
    _core: NotRequired[tuple[str, str]]  # the texts before long-turn wrapping, for de-duplication
    _long: NotRequired[bool]


class Row(TypedDict):
    id: str
    a: str
    b: str
    relation: str
    kind_a: str
    kind_b: str
    source: str
    frame: str
    _long: bool


def make_pair(
    r: random.Random,
    a_raw: str | None,
    b_raw: str | None,
    rel: str,
    frame: str,
    ka: str,
    kb: str,
    ta: str,
    tb: str,
    long_ok: bool = True,
    a_final: bool = False,
    b_final: bool = False,
) -> Pair | None:
    if a_raw is None or b_raw is None:
        return None
    mode = None
    if long_ok and r.random() < P_LONG:
        if frame in LOOP_FRAMES or frame.startswith("other-subject-task"):
            mode = "b"
        else:
            mode = r.choice(["both", "both", "both", "a", "b"])
    a = longify(a_raw, ta, r) if mode in ("both", "a") else cap(frame_short(a_raw, r))
    b = longify(b_raw, tb, r) if mode in ("both", "b") else cap(frame_short(b_raw, r))
    return {
        "a": a,
        "b": b,
        "relation": rel,
        "frame": frame,
        "kind_a": ka,
        "kind_b": kb,
        "_core": (norm(a_raw), norm(b_raw)),
        "_long": mode is not None,
    }


# ---------------------------------------------------------------------------
# Frame generators: each returns one pair dict or None
# ---------------------------------------------------------------------------


def attrs_where(pred: Callable[[AttrSpec], object]) -> list[AttrSpec]:
    return [a for a in ATTRS.values() if pred(a)]


def can_vary(attr: AttrSpec) -> bool:
    spec = KINDS[attr["kind"]]
    if spec["fields"]:
        return True
    return spec["owner"] and attr["owners"] != "self"


A_ALL = list(ATTRS.values())
A_CHANGE = attrs_where(lambda a: a["change"] == "all")
A_CUED = attrs_where(lambda a: a["change"] in ("all", "cued") and cue_options(a, False))
A_SAME = attrs_where(lambda a: a["change"] != "none" and cue_options(a, True))
A_VARY = attrs_where(can_vary)
A_DETAIL = attrs_where(lambda a: a["detail"])
A_ADDL = attrs_where(lambda a: a["addl"])


def neg_subject(item: NegItem, r: random.Random, owner: Owner | None = None) -> Subj:
    s = make_subject(item["kind"], r, "any", owner=owner)
    s.fields.update(neg_extra(item, r))
    return s


def neg_pick(item: NegItem, side: str, r: random.Random, same_ok_only: bool = False) -> str | None:
    pool = item[side]
    out = []
    for t in pool:
        t2, mk = parse_marks(t)
        if same_ok_only and (mk or EVENT_RE.search(t2)):
            continue
        out.append(t2)
    return r.choice(out) if out else None


def g_paraphrase(r: random.Random) -> Pair | None:
    if r.random() < 0.17:
        item = r.choice(NEG)
        s = neg_subject(item, r)
        side = r.choice(["pos", "neg"])
        if len(item[side]) < 2:
            return None
        ta, tb = r.sample(item[side], 2)
        return make_pair(
            r,
            render(ta, s, rform(s, r), r),
            render(tb, s, rform(s, r), r),
            "duplicate",
            "paraphrase",
            item["k"],
            item["k"],
            item["topic"],
            item["topic"],
        )
    attr = r.choice(A_ALL)
    s = subj_for(attr, r)
    v = attr["vt"](r, s)
    a = base_raw(attr, s, r, v)
    b = base_raw(attr, s, r, v)
    return make_pair(r, a, b, "duplicate", "paraphrase", attr["k"], attr["k"], attr["topic"], attr["topic"])


def g_cue_same(r: random.Random) -> Pair | None:
    if r.random() < 0.14:
        item = r.choice(NEG)
        s = neg_subject(item, r)
        side, cside = r.choice([("neg", "cneg"), ("pos", "cpos")])
        tb = neg_pick(item, cside, r, same_ok_only=True)
        if tb is None:
            return None
        ta = r.choice(item[side])
        return make_pair(
            r,
            render(ta, s, rform(s, r), r),
            render(tb, s, rform(s, r), r),
            "duplicate",
            "cue-same-value",
            item["k"],
            item["k"],
            item["topic"],
            item["topic"],
        )
    attr = r.choice(A_SAME)
    s = subj_for(attr, r)
    v = attr["vt"](r, s)
    a = base_raw(attr, s, r, v)
    b = cued_raw(attr, s, r, v, None, same=True)
    return make_pair(r, a, b, "duplicate", "cue-same-value", attr["k"], attr["k"], attr["topic"], attr["topic"])


def g_uncued(r: random.Random) -> Pair | None:
    attr = r.choice(A_CHANGE)
    s = subj_for(attr, r)
    v1 = attr["vt"](r, s)
    v2 = other_val(attr, s, v1, r)
    if v2 is None:
        return None
    return make_pair(
        r,
        base_raw(attr, s, r, v1),
        base_raw(attr, s, r, v2),
        "contradicts",
        "uncued-change",
        attr["k"],
        attr["k"],
        attr["topic"],
        attr["topic"],
    )


def g_cued(r: random.Random) -> Pair | None:
    attr = r.choice(A_CUED)
    s = subj_for(attr, r)
    v1 = attr["vt"](r, s)
    got = pick_cued_change(attr, s, r, v1)
    if not got:
        return None
    return make_pair(
        r,
        base_raw(attr, s, r, v1),
        got[0],
        "supersedes",
        "cued-change",
        attr["k"],
        attr["k"],
        attr["topic"],
        attr["topic"],
    )


def g_negation(r: random.Random) -> Pair | None:
    item = r.choice(NEG)
    s = neg_subject(item, r)
    sides = ["pos", "neg"]
    r.shuffle(sides)
    a = render(r.choice(item[sides[0]]), s, rform(s, r), r)
    b = render(r.choice(item[sides[1]]), s, rform(s, r), r)
    return make_pair(r, a, b, "contradicts", "negation", item["k"], item["k"], item["topic"], item["topic"])


def g_negation_cued(r: random.Random) -> Pair | None:
    item = r.choice(NEG)
    s = neg_subject(item, r)
    side, cside = r.choice([("pos", "cneg"), ("neg", "cpos")])
    if not item[cside]:
        return None
    a = render(r.choice(item[side]), s, rform(s, r), r)
    b = render(parse_marks(r.choice(item[cside]))[0], s, rform(s, r), r)
    return make_pair(r, a, b, "supersedes", "negation-cued", item["k"], item["k"], item["topic"], item["topic"])


def task_vary(t: Task, m: dict[str, Any], r: random.Random) -> dict[str, Any]:
    key = t["vary"]
    assert key is not None, "only tasks with a vary field have another subject"
    m2 = dict(m)
    if key == "PERSON":
        o2 = other_owner(r, m["_owner"], "other")
        m2["PERSON"], m2["PERSONP"], m2["_owner"] = o2.forms[0]["S"], o2.forms[0]["P"], o2
    elif key == "PET":
        m2["PET"] = r.choice([p for p in PET_NAMES if p != m["PET"]])
    else:
        pool = {"SVC": SERVICES, "OITEM": ITEMS, "BILL": BILLS, "CITY": CITIES, "CLASS": CLASSES, "POL": POLICIES}[key]
        m2[key] = r.choice([x for x in pool if x != m[key]])
    return m2


def g_other_subject(r: random.Random, cued: bool = False) -> Pair | None:
    b: str | None
    v2: Val | None
    x = r.random()
    if not cued and x < 0.1:
        t = r.choice([t for t in TASKS if t["vary"]])
        m = loop_fields(r)
        m2 = task_vary(t, m, r)
        a = fill(r.choice(t["task"]), m)
        b = fill(r.choice(t["done"]), m2)
        return make_pair(
            r,
            a,
            b,
            "complementary",
            "other-subject-task",
            "task",
            "fact",
            t["topic"],
            t["topic"],
            a_final=True,
            b_final=True,
        )
    if not cued and x < 0.22:
        item = r.choice(NEG)
        s1 = neg_subject(item, r)
        s2, _ = vary_subject(s1, r)
        s2.fields.update({k: v for k, v in s1.fields.items() if k not in s2.fields})
        a = render(r.choice(item[r.choice(["pos", "neg"])]), s1, 0, r)
        b = render(r.choice(item[r.choice(["pos", "neg"])]), s2, 0, r)
        return make_pair(r, a, b, "complementary", "other-subject", item["k"], item["k"], item["topic"], item["topic"])
    attr = r.choice(A_VARY if not cued else [a for a in A_VARY if a in A_CUED])
    s1 = subj_for(attr, r)
    s2, how = vary_subject(s1, r, attr["owners"], attr["noroles"])
    v1 = attr["vt"](r, s1)
    clash = KINDS[attr["kind"]].get("clash") and how != "owner"
    if how != "owner" and attr["vt"] in (v_dose, v_runtime, v_kg_pet):
        v2 = attr["vt"](r, s2)  # the value type depends on the varied field
    elif not clash and r.random() < 0.55:
        v2 = v1
    else:
        v2 = other_val(attr, s2, v1, r)
    if v2 is None:
        return None
    a = base_raw(attr, s1, r, v1, form=0)
    if not cued:
        b = base_raw(attr, s2, r, v2, form=0)
        frame = "other-subject"
    else:
        # the newer statement carries an update cue, but about another subject
        old = other_val(attr, s2, v2, r) if v2.canon == v1.canon else v1
        if old is None or (v2.num is not None and old.num is None):
            return None
        same = v2.canon == v1.canon and r.random() < 0.5
        b = cued_raw(attr, s2, r, v2, None if same else old, same=same, form=0)
        frame = "other-subject-cued"
    return make_pair(r, a, b, "complementary", frame, attr["k"], attr["k"], attr["topic"], attr["topic"])


def g_other_subject_cued(r: random.Random) -> Pair | None:
    return g_other_subject(r, cued=True)


def g_other_attr(r: random.Random) -> Pair | None:
    na, nb, same = r.choice(OTHER_ATTR)
    A1, B1 = ATTRS[na], ATTRS[nb]
    assert A1["kind"] == B1["kind"], (na, nb)
    policy = "self" if "self" in (A1["owners"], B1["owners"]) else "any"
    s = make_subject(A1["kind"], r, policy, noroles=A1["noroles"] or B1["noroles"])
    vA = A1["vt"](r, s)
    if same is True and A1["vt"].tag == B1["vt"].tag and r.random() < 0.6:
        vB = vA
    else:
        vB = B1["vt"](r, s)
        if same == "diff" and vB.canon == vA.canon:
            return None
        if same == "after" and not (vB.num is not None and vA.num is not None and vB.num > vA.num + 40):
            return None
    first, second = (A1, vA), (B1, vB)
    if r.random() < 0.5:
        first, second = second, first
    a = base_raw(first[0], s, r, first[1])
    if r.random() < 0.2 and second[0]["change"] != "none" and cue_options(second[0], True):
        b = cued_raw(second[0], s, r, second[1], None, same=True)
    else:
        b = base_raw(second[0], s, r, second[1])
    return make_pair(
        r,
        a,
        b,
        "complementary",
        "other-attribute",
        first[0]["k"],
        second[0]["k"],
        first[0]["topic"],
        second[0]["topic"],
    )


def g_added_detail(r: random.Random) -> Pair | None:
    attr = r.choice(A_DETAIL)
    s = subj_for(attr, r)
    v = attr["vt"](r, s)
    a = base_raw(attr, s, r, v)
    b = render(r.choice(attr["detail"]), s, rform(s, r), r, val=v)
    return make_pair(r, a, b, "complementary", "added-detail", attr["k"], attr["k"], attr["topic"], attr["topic"])


def g_additional(r: random.Random) -> Pair | None:
    attr = r.choice(A_ADDL)
    s = subj_for(attr, r)
    v1 = attr["vt"](r, s)
    v2 = other_val(attr, s, v1, r)
    a = base_raw(attr, s, r, v1)
    b = render(r.choice(attr["addl"]), s, rform(s, r), r, val=v2)
    return make_pair(r, a, b, "complementary", "additional-value", attr["k"], attr["k"], attr["topic"], attr["topic"])


def g_loop_done(r: random.Random) -> Pair | None:
    t = r.choice(TASKS)
    m = loop_fields(r)
    a = fill(r.choice(t["task"]), m)
    b = fill(r.choice(t["cancel"]), m) if t["cancel"] and r.random() < 0.3 else fill(r.choice(t["done"]), m)
    return make_pair(
        r, a, b, "supersedes", "loop-done", "task", "fact", t["topic"], t["topic"], a_final=True, b_final=True
    )


def g_question(r: random.Random) -> Pair | None:
    q = r.choice(QUESTIONS)
    m = loop_fields(r)
    a = fill(r.choice(q["q"]), m)
    b = fill(r.choice(q["ans"]), m)
    return make_pair(
        r,
        cap(a),
        cap(b),
        "supersedes",
        "question-answered",
        "open-question",
        q["k_b"],
        q["topic"],
        q["topic"],
        a_final=True,
        b_final=True,
    )


def g_restated(r: random.Random) -> Pair | None:
    m = loop_fields(r)
    if r.random() < 0.6:
        t = r.choice(TASKS)
        a, b, kb, tp = fill(r.choice(t["task"]), m), fill(r.choice(t["still"]), m), "task", t["topic"]
        ka = "task"
    else:
        q = r.choice(QUESTIONS)
        a, b, tp = fill(r.choice(q["q"]), m), fill(r.choice(q["still"]), m), q["topic"]
        ka = kb = "open-question"
    return make_pair(r, cap(a), cap(b), "duplicate", "loop-restated", ka, kb, tp, tp, a_final=True, b_final=True)


def rand_statement(
    r: random.Random, owner: Owner | None = None, only_owner_kinds: bool = False
) -> tuple[str, str, str, bool]:
    """Any statement with its topic and kind: (raw, topic, kind, final)."""
    x = r.random()
    if owner is None and not only_owner_kinds:
        if x < 0.07:
            t = r.choice(TASKS)
            return fill(r.choice(t["task"]), loop_fields(r)), t["topic"], "task", True
        if x < 0.13:
            q = r.choice(QUESTIONS)
            return cap(fill(r.choice(q["q"]), loop_fields(r))), q["topic"], "open-question", True
        if x < 0.27:
            item = r.choice(NEG)
            s = neg_subject(item, r)
            return (
                render(r.choice(item[r.choice(["pos", "neg"])]), s, rform(s, r), r),
                item["topic"],
                item["k"],
                False,
            )
    if owner is not None and x < 0.15:
        item = r.choice([i for i in NEG if i["kind"] == "person"])
        s = neg_subject(item, r, owner=owner)
        return (render(r.choice(item[r.choice(["pos", "neg"])]), s, rform(s, r), r), item["topic"], item["k"], False)
    pool = A_ALL
    if owner is not None or only_owner_kinds:
        pool = [
            a
            for a in A_ALL
            if KINDS[a["kind"]]["owner"]
            and a["owners"] == "any"
            and not (a["noroles"] and owner is not None and owner.kind == "role")
        ]
    attr = r.choice(pool)
    s = subj_for(attr, r, owner=owner)
    v = attr["vt"](r, s)
    if r.random() < 0.1 and attr["detail"]:
        keep = owner is not None and attr["kind"] in ("pet", "appt", "flight")
        raw = render(r.choice(attr["detail"]), s, 0 if keep else rform(s, r), r, val=v)
    elif owner is not None and attr["kind"] in ("pet", "appt", "flight"):
        raw = base_raw(attr, s, r, v, form=0)  # keep the owner's name visible
    else:
        raw = base_raw(attr, s, r, v)
    return raw, attr["topic"], attr["k"], False


def g_topic_shift(r: random.Random) -> Pair | None:
    a = rand_statement(r)
    for _ in range(30):
        b = rand_statement(r)
        if topics_unrelated(a[1], b[1]):
            return make_pair(
                r, a[0], b[0], "unrelated", "topic-shift", a[2], b[2], a[1], b[1], a_final=a[3], b_final=b[3]
            )
    return None


def g_same_name(r: random.Random) -> Pair | None:
    o = rand_owner(r, "other", noroles=True)
    a = rand_statement(r, owner=o)
    for _ in range(30):
        b = rand_statement(r, owner=o)
        if topics_unrelated(a[1], b[1]):
            return make_pair(r, a[0], b[0], "unrelated", "topic-shift-same-name", a[2], b[2], a[1], b[1])
    return None


def _shared_pairs() -> list[tuple[AttrSpec, AttrSpec]]:
    out = []
    for A1 in A_ALL:
        for B1 in A_ALL:
            if A1 is B1 or not topics_unrelated(A1["topic"], B1["topic"]):
                continue
            fa, fb = A1["vt"].fam, B1["vt"].fam
            if fa and fa == fb:
                if max(A1["vt"].lo, B1["vt"].lo) < min(A1["vt"].hi, B1["vt"].hi):
                    out.append((A1, B1))
            elif A1["vt"].tag == B1["vt"].tag and A1["vt"].tag in ("date", "weekly", "monthyear", "name", "dtime"):
                out.append((A1, B1))
    return out


SHARED = _shared_pairs()


def g_shared_word(r: random.Random) -> Pair | None:
    A1, B1 = r.choice(SHARED)
    sA, sB = subj_for(A1, r), subj_for(B1, r)
    for _ in range(50):
        v = A1["vt"](r, sA)
        fam = A1["vt"].fam
        if fam is None:
            break
        x = v.canon[0] if fam == "time" else v.canon
        if B1["vt"].lo <= x <= B1["vt"].hi:
            break
    else:
        return None
    if A1["vt"].tag == "name" and (v.canon in (sA.owner.name, sB.owner.name)):
        return None
    return make_pair(
        r,
        base_raw(A1, sA, r, v),
        base_raw(B1, sB, r, v),
        "unrelated",
        "topic-shift-shared-word",
        A1["k"],
        B1["k"],
        A1["topic"],
        B1["topic"],
    )


def g_chatty(r: random.Random) -> Pair | None:
    line, ct = r.choice(CHATTY)
    for _ in range(30):
        st = rand_statement(r)
        if topics_unrelated(st[1], ct):
            break
    else:
        return None
    if r.random() < 0.8:
        return make_pair(
            r,
            st[0],
            line,
            "unrelated",
            "topic-shift-chatty",
            st[2],
            "observation",
            st[1],
            ct,
            a_final=st[3],
            b_final=True,
        )
    return make_pair(
        r, line, st[0], "unrelated", "topic-shift-chatty", "observation", st[2], ct, st[1], a_final=True, b_final=st[3]
    )


GENERATORS: dict[str, Callable[[random.Random], Pair | None]] = {
    "paraphrase": g_paraphrase,
    "cue-same-value": g_cue_same,
    "loop-restated": g_restated,
    "cued-change": g_cued,
    "negation-cued": g_negation_cued,
    "loop-done": g_loop_done,
    "question-answered": g_question,
    "uncued-change": g_uncued,
    "negation": g_negation,
    "other-subject": g_other_subject,
    "other-subject-cued": g_other_subject_cued,
    "other-attribute": g_other_attr,
    "added-detail": g_added_detail,
    "additional-value": g_additional,
    "topic-shift": g_topic_shift,
    "topic-shift-same-name": g_same_name,
    "topic-shift-shared-word": g_shared_word,
    "topic-shift-chatty": g_chatty,
}

# target pairs per frame (literal pairs count towards their frame)
QUOTA = {
    "paraphrase": 265,
    "cue-same-value": 160,
    "loop-restated": 55,  # duplicate 480
    "cued-change": 285,
    "negation-cued": 70,
    "loop-done": 65,
    "question-answered": 60,  # supersedes 480
    "uncued-change": 380,
    "negation": 100,  # contradicts 480
    "other-subject": 160,
    "other-subject-cued": 80,
    "other-attribute": 130,
    "added-detail": 80,
    "additional-value": 30,  # complementary 480
    "topic-shift": 190,
    "topic-shift-same-name": 130,
    "topic-shift-shared-word": 70,
    "topic-shift-chatty": 90,  # unrelated 480
}
FRAME_REL = {
    "paraphrase": "duplicate",
    "cue-same-value": "duplicate",
    "loop-restated": "duplicate",
    "cued-change": "supersedes",
    "negation-cued": "supersedes",
    "loop-done": "supersedes",
    "question-answered": "supersedes",
    "uncued-change": "contradicts",
    "negation": "contradicts",
    "other-subject": "complementary",
    "other-subject-cued": "complementary",
    "other-subject-task": "complementary",
    "other-attribute": "complementary",
    "added-detail": "complementary",
    "additional-value": "complementary",
    "topic-shift": "unrelated",
    "topic-shift-same-name": "unrelated",
    "topic-shift-shared-word": "unrelated",
    "topic-shift-chatty": "unrelated",
}


# ---------------------------------------------------------------------------
# Hand-written pairs
# ---------------------------------------------------------------------------

DUP, SUP, CON, COM, UNR = "duplicate", "supersedes", "contradicts", "complementary", "unrelated"
LITERALS: list[LiteralPair] = []


def L(a: str, b: str, rel: str, frame: str, ka: str = "fact", kb: str = "fact") -> None:
    LITERALS.append({"a": a, "b": b, "relation": rel, "frame": frame, "kind_a": ka, "kind_b": kb})


# duplicate
L(
    "I'm allergic to penicillin, so no antibiotics from that family.",
    "Penicillin gives me an allergic reaction.",
    DUP,
    "paraphrase",
)
L("My sister Ana's birthday is on the 3rd of May.", "Ana, my sister, was born on May 3.", DUP, "paraphrase")
L("Our landlord is a man called Mr. Okafor.", "Mr. Okafor is the landlord of our flat.", DUP, "paraphrase")
L("The wifi password is otter-lamp-29.", "Wifi password for the flat: otter-lamp-29.", DUP, "paraphrase")
L("I run about three times a week.", "Three runs a week is my usual routine.", DUP, "paraphrase")
L("Biscuit eats Hearth & Hound kibble.", "We feed Biscuit Hearth & Hound dry food.", DUP, "paraphrase")
L("My passport expires in August 2027.", "My passport is valid until August 2027.", DUP, "paraphrase")
L("The rent is €1,150 a month.", "I pay 1,150 euros in rent every month.", DUP, "paraphrase")
L("Grandpa Teo doesn't eat pork.", "My grandpa Teo avoids pork entirely.", DUP, "paraphrase")
L("Streamly costs me €11.99 a month.", "I pay 11.99 euros monthly for Streamly.", DUP, "paraphrase")
L(
    "The dentist appointment is Thursday at 14:00.",
    "The dentist appointment is now Thursday at 2 pm.",
    DUP,
    "cue-same-value",
)
L("My yoga class is on Tuesday evenings.", "Yoga is still on Tuesday evenings.", DUP, "paraphrase")
L("Rupert drives a Volvo XC60.", "These days Rupert drives a Volvo XC60.", DUP, "cue-same-value")
L("I bank with Fjordbank.", "My current account is with Fjordbank, same as always.", DUP, "paraphrase")
L(
    "Task: renew the car insurance before the 30th.",
    "Reminder to self: the car insurance renewal still needs doing before the 30th.",
    DUP,
    "loop-restated",
    "task",
    "task",
)
L(
    "Open question: should we take the train or fly to Porto?",
    "Still undecided whether to fly or take the train to Porto.",
    DUP,
    "loop-restated",
    "open-question",
    "open-question",
)
L("My 5K personal best is 24:55.", "The fastest 5K I've ever run was 24 minutes 55 seconds.", DUP, "paraphrase")
L("Mei is vegetarian.", "Mei follows a vegetarian diet.", DUP, "paraphrase")
L("I have 17 postcards in my collection.", "My postcard collection stands at seventeen.", DUP, "paraphrase")
L("The bins go out on Tuesday night.", "Tuesday night is bin night.", DUP, "paraphrase")
L(
    "Hana's favourite cuisine is Peruvian.",
    "Peruvian is Hana's favourite cuisine.",
    DUP,
    "paraphrase",
    "preference",
    "preference",
)
L("The electricity bill is due on the 15th.", "Electricity is due on the 15th of each month.", DUP, "paraphrase")
L("Order #48213 is arriving on Friday.", "Order #48213 now arrives Friday.", DUP, "cue-same-value")
L("I take 50 mg of sertraline every morning.", "My morning dose of sertraline is 50 mg.", DUP, "paraphrase")
L("My dog Pepper weighs 14 kg.", "Pepper is 14 kilos now.", DUP, "cue-same-value")
L("Leila's partner is called Jonas.", "Jonas is Leila's partner.", DUP, "paraphrase")
L("We're staying at Hotel Marisol in Lisbon.", "The Lisbon hotel is Hotel Marisol.", DUP, "paraphrase", "plan", "plan")
L("My GP is Dr. Lindqvist.", "Dr. Lindqvist is my family doctor.", DUP, "paraphrase")
L("I no longer drink coffee.", "I don't drink coffee.", DUP, "paraphrase")
L("Ana moved to Porto last year.", "Ana lives in Porto.", DUP, "paraphrase")
L(
    "Going forward, I'll do the big food shop on Saturdays.",
    "The big food shop is on Saturdays from now on.",
    DUP,
    "cue-same-value",
    "plan",
    "plan",
)
L(
    "My mother-in-law's wedding anniversary is October 9.",
    "My mother-in-law got married on 9 October.",
    DUP,
    "paraphrase",
)
L(
    "I'm sorting out the flat this weekend and trying to get everything onto one list. The boiler is "
    "an Alpenwerk, by the way, and it gets serviced every October. Could you remind me closer to the "
    "time so I don't forget to book the engineer?",
    "Quick note for the records: our boiler is made by Alpenwerk. I'm making a folder with all the "
    "appliance manuals so I stop losing them in the kitchen drawer. Can you help me think of what "
    "else should go in it?",
    DUP,
    "paraphrase",
)
L(
    "I'm catching up on pet admin while the kettle boils. Our rabbit Bramble is on Meadowbite pellets, "
    "which seem to suit her well. Do rabbits need any supplements on top of that?",
    "Pet life is chaotic as usual. We feed Bramble Meadowbite, same as always, and she has been very "
    "lively this week. Any ideas for toys that keep a rabbit busy during the day?",
    DUP,
    "paraphrase",
)

# supersedes
L("I've added 17 postcards to my collection.", "I've now added 25 postcards to my collection.", SUP, "cued-change")
L(
    "The dentist appointment is on Thursday at 14:00.",
    "The dentist rescheduled me to Friday at 10:30.",
    SUP,
    "cued-change",
)
L("Priya lives in Oslo.", "Priya moved to Bergen in March.", SUP, "cued-change")
L("I eat meat.", "I no longer eat meat.", SUP, "negation-cued")
L(
    "Task: book the vet for Biscuit.",
    "Booked Biscuit in with the vet for Tuesday morning.",
    SUP,
    "loop-done",
    "task",
    "fact",
)
L(
    "Task: cancel the gym membership.",
    "Gym membership cancelled; the last payment goes out on the 28th.",
    SUP,
    "loop-done",
    "task",
    "fact",
)
L(
    "Open question: which hotel should we book in Lisbon?",
    "We went with Casa Limão for Lisbon.",
    SUP,
    "question-answered",
    "open-question",
    "plan",
)
L("My Streamly subscription is €9.99 a month.", "Streamly raised the price to €12.99 a month.", SUP, "cued-change")
L("I drive a Honda Jazz.", "Just got a new car, a Kia Niro, and sold the Jazz.", SUP, "cued-change")
L("I bank with Northwind Bank.", "I switched from Northwind Bank to Fjordbank.", SUP, "cued-change")
L("My rent is €1,150 a month.", "As of June, my rent goes up to €1,210.", SUP, "cued-change")
L("I'm reading 'The Salt Road'.", "I finished 'The Salt Road' and started 'Winter Orchard'.", SUP, "cued-change")
L("I take 20 mg of atorvastatin a day.", "My doctor upped my atorvastatin to 40 mg a day.", SUP, "cued-change")
L(
    "The recycling goes out on Wednesdays.",
    "Starting next week, recycling collection moves to Thursdays.",
    SUP,
    "cued-change",
)
L("My 5K personal best is 26:40.", "New 5K personal best this morning: 25:58!", SUP, "cued-change")
L("My target weight is 75 kg.", "I've changed my target weight to 72 kg.", SUP, "cued-change")
L(
    "Order #51907 is out for delivery.",
    "Order #51907 has now been delivered and is with the neighbour at number 12.",
    SUP,
    "cued-change",
)
L(
    "Open question: does Ana's son have any food allergies?",
    "Ana says her son is allergic to sesame.",
    SUP,
    "question-answered",
    "open-question",
    "fact",
)
L(
    "Task: return the rain jacket to Northbound Outdoor.",
    "Returned the rain jacket; the refund should land in five days.",
    SUP,
    "loop-done",
    "task",
    "fact",
)
L(
    "Task: find a new dentist.",
    "No need to look for a new dentist anymore; Dr. Amari is taking patients again.",
    SUP,
    "loop-done",
    "task",
    "fact",
)
L("I don't drink alcohol.", "I've started having the odd glass of wine with dinner.", SUP, "negation-cued")
L("Kenji works at Tallow Books.", "Kenji left Tallow Books and now works at Quillon Media.", SUP, "cued-change")
L("The wifi password is otter-lamp-29.", "I changed the wifi password to heron-bell-77.", SUP, "cued-change")
L(
    "Our flight to Kraków leaves at 07:15.",
    "The airline moved our Kraków flight to 09:40.",
    SUP,
    "cued-change",
    "plan",
    "plan",
)
L(
    "My home insurance is with Aegis Home.",
    "I renewed the home insurance with Bluefin instead of Aegis this year.",
    SUP,
    "cued-change",
)
L("Luna eats Wildpaw salmon.", "We switched Luna to Hearth & Hound because of her tummy.", SUP, "cued-change")
L(
    "Is the boiler still under warranty?",
    "I checked: the boiler warranty ran out in January.",
    SUP,
    "question-answered",
    "open-question",
    "fact",
)
L(
    "My savings goal for the house deposit is €20,000.",
    "I bumped the house deposit goal up to €25,000.",
    SUP,
    "cued-change",
)
L("My passport expires in August 2027.", "Got my new passport; it's valid until 2035.", SUP, "cued-change")
L(
    "Dev's favourite colour is orange.",
    "Dev used to love orange, but now it's all about teal.",
    SUP,
    "cued-change",
    "preference",
    "preference",
)
L("I'm vegetarian.", "I'm not vegetarian anymore; I eat fish and chicken now.", SUP, "negation-cued")
L(
    "I'm planning a dinner party this weekend and trying to work out who can make it. My sister Ana "
    "lives in Lisbon, so she'd need to get the train up on Friday. Any recipe ideas that work for a crowd?",
    "Quick update before the dinner party: my sister Ana moved to Porto last month, so she can't come "
    "after all. Could you help me adjust the menu for eight people instead of nine?",
    SUP,
    "cued-change",
)
L(
    "Sorry for the long message, I'm catching up on admin. The pottery class is on Thursday evenings "
    "at the community centre, and I love it. I also need to sort out the car tax at some point. What "
    "should I tackle first?",
    "I've been juggling my calendar all morning. The pottery class moves to Wednesday evenings from next "
    "month, which suits me better anyway. Can you help me rearrange the rest of my week around it?",
    SUP,
    "cued-change",
)

# contradicts
L(
    "The dentist appointment is on Thursday at 14:00.",
    "The dentist appointment is Friday at 14:00.",
    CON,
    "uncued-change",
)
L("I eat meat.", "I don't eat meat.", CON, "negation")
L("I've added 17 postcards to my collection.", "I've added 25 postcards to my collection.", CON, "uncued-change")
L("Priya lives in Oslo.", "Priya lives in Bergen.", CON, "uncued-change")
L("Rupert drives a Volvo XC60.", "Rupert drives a Skoda Octavia.", CON, "uncued-change")
L("Ana's birthday is May 3.", "Ana's birthday is on the 13th of May.", CON, "uncued-change")
L("My rent is €1,150 a month.", "I pay €1,250 in rent each month.", CON, "uncued-change")
L("The electricity bill is due on the 15th.", "The electricity bill is due on the 22nd.", CON, "uncued-change")
L("Biscuit weighs 12 kg.", "Biscuit weighs 15 kg.", CON, "uncued-change")
L("I'm allergic to shellfish.", "I'm not allergic to shellfish.", CON, "negation")
L(
    "Hana's favourite cuisine is Peruvian.",
    "Hana's favourite cuisine is Ethiopian.",
    CON,
    "uncued-change",
    "preference",
    "preference",
)
L("My GP is Dr. Lindqvist.", "My GP is Dr. Haddad.", CON, "uncued-change")
L("Order #48213 arrives on Friday.", "Order #48213 is arriving on Tuesday.", CON, "uncued-change")
L("Streamly costs €11.99 a month.", "Streamly is €13.99 a month.", CON, "uncued-change")
L("Our trip to Lisbon starts on June 3.", "Our trip to Lisbon starts on June 10.", CON, "uncued-change", "plan", "plan")
L("I take 50 mg of sertraline.", "I take 100 mg of sertraline.", CON, "uncued-change")
L("My landlord is Mr. Okafor.", "My landlord is Mrs. Delacroix.", CON, "uncued-change")
L("Omar has two kids.", "Omar has three children.", CON, "uncued-change")
L("My yoga class starts at 18:30.", "My yoga class starts at 7 pm.", CON, "uncued-change")
L("Mateo works from home.", "Mateo doesn't work from home.", CON, "negation")
L("My passport expires in August 2027.", "My passport expires in March 2026.", CON, "uncued-change")
L(
    "We're staying at Hotel Marisol in Lisbon.",
    "We're staying at The Quayside in Lisbon.",
    CON,
    "uncued-change",
    "plan",
    "plan",
)
L("The washing machine is a Kelvo.", "The washing machine is a Frostline.", CON, "uncued-change")
L(
    "My mom's usual coffee order is an oat flat white.",
    "My mom always orders a double espresso at the café.",
    CON,
    "uncued-change",
    "preference",
    "preference",
)
L("I bank with Northwind Bank.", "My main bank is Cobalt Bank.", CON, "uncued-change")
L("Leila's partner is called Jonas.", "Leila's partner is called Tomas.", CON, "uncued-change")
L("My car is due for a service on October 12.", "My car's next service is on November 2.", CON, "uncued-change")
L("I have cello lessons on Wednesdays.", "My cello lessons are on Mondays.", CON, "uncued-change")
L("Our cat is called Miso.", "Our cat's name is Mochi.", CON, "uncued-change")
L("Farah is allergic to penicillin.", "Farah has no allergy to penicillin.", CON, "negation")
L(
    "Okay, a few things to note while I remember. My brother Dev's wedding anniversary is on June 14, "
    "and I want to send flowers this year. Can you remind me a week before so I can order them in time?",
    "I'm putting together the family calendar for the year. My brother Dev's wedding anniversary is on "
    "July 14, so that goes in the summer section. What other dates should I be collecting from everyone?",
    CON,
    "uncued-change",
)
L(
    "I'm doing my budget tonight with a big mug of tea. My Tunewave subscription is €10.99 a month, which "
    "feels like a lot for how little I use it. Should I keep it or not?",
    "Going through my bank statements this evening. Tunewave costs €8.99 a month, and the gym is the "
    "biggest line after rent. Is there anything obvious I could trim?",
    CON,
    "uncued-change",
)

# complementary
L(
    "Hana's favourite cuisine is Peruvian.",
    "Zoe's favourite cuisine is Peruvian.",
    COM,
    "other-subject",
    "preference",
    "preference",
)
L("Rupert drives a Volvo XC60.", "Victor drives a Volvo XC60.", COM, "other-subject")
L("My dentist appointment is Thursday at 14:00.", "Ana's dentist appointment is Friday at 14:00.", COM, "other-subject")
L(
    "Hana prefers Peruvian food.",
    "Zoe now prefers Peruvian food.",
    COM,
    "other-subject-cued",
    "preference",
    "preference",
)
L("Priya lives in Oslo.", "Priya works in Oslo.", COM, "other-attribute")
L("My sister's birthday is May 3.", "My sister's anniversary is May 3.", COM, "other-attribute")
L("Priya lives in Oslo.", "Priya lives in Oslo, in a flat near Frogner Park.", COM, "added-detail")
L("Task: book the vet for Biscuit.", "Booked the vet for Miso on Monday.", COM, "other-subject-task", "task", "fact")
L("I'm allergic to peanuts.", "I'm also allergic to kiwi.", COM, "additional-value")
L("Order #48213 arrives Friday.", "Order #48977 arrives Friday.", COM, "other-subject")
L("The electricity bill is due on the 15th.", "The water bill is due on the 15th.", COM, "other-subject")
L("My 5K personal best is 26:40.", "My 5K goal is 25:00.", COM, "other-attribute")
L("My GP is Dr. Amari.", "Ana's GP is Dr. Amari.", COM, "other-subject")
L("I weigh 80 kg.", "My target weight is 74 kg.", COM, "other-attribute")
L("My flight to Rome leaves at 07:15.", "Priya's flight to Rome leaves at 09:40.", COM, "other-subject", "plan", "plan")
L(
    "The book club pick for October is 'Nine Lanterns'.",
    "The book club pick for November is 'The Glass Ferry'.",
    COM,
    "other-subject",
)
L("I take 20 mg of atorvastatin a day.", "I take my atorvastatin in the evening with dinner.", COM, "other-attribute")
L("Streamly costs €11.99 a month.", "CineBox now costs €11.99 a month.", COM, "other-subject-cued")
L("My car insurance is with Keel Insurance.", "My home insurance is with Keel Insurance.", COM, "other-subject")
L("The recycling goes out on Tuesdays.", "The garden waste now goes out on Tuesdays.", COM, "other-subject-cued")
L("Kenji moved to Osaka.", "Kenji's brother Daisuke moved to Osaka as well.", COM, "other-subject")
L(
    "My dog Pepper goes to Riverside Vets.",
    "Pepper's groomer is Fluff & Fold on the high street.",
    COM,
    "other-attribute",
)
L("I don't eat meat.", "My partner doesn't eat meat either.", COM, "other-subject")
L("My pottery class is on Thursdays.", "My pottery class starts at 18:30.", COM, "other-attribute")
L(
    "We're staying at Hotel Marisol in Lisbon.",
    "We're staying at Hotel Marisol in Lisbon for five nights, with breakfast included.",
    COM,
    "added-detail",
    "plan",
    "plan",
)
L("My rent is €1,150 a month.", "The deposit on my flat was €1,150.", COM, "other-attribute")
L("I have 17 postcards in my collection.", "I have 17 stamps in my collection.", COM, "other-subject")
L("Ana's son is allergic to sesame.", "Ana's daughter is allergic to sesame.", COM, "other-subject")
L(
    "I switched from Northwind Bank to Fjordbank.",
    "My brother Dev switched from Northwind Bank to Fjordbank as well.",
    COM,
    "other-subject-cued",
)
L("My sister Elif speaks Turkish.", "My sister Elif also speaks German.", COM, "additional-value")
L(
    "The dishwasher isn't working.",
    "The washing machine isn't working either.",
    COM,
    "other-subject",
    "observation",
    "observation",
)
L(
    "I'm sorting out pet admin today. Biscuit is due for a booster at Riverside Vets, and I keep "
    "forgetting to call them about it. Could you nudge me tomorrow morning so I actually do it?",
    "Pet life is chaotic as usual. By the way, Mochi, our cat, is registered at Riverside Vets too, so I "
    "could do both animals in one visit. Any tips for getting a cat into a carrier without a fight?",
    COM,
    "other-subject",
)
L(
    "I'm going through my budget spreadsheet tonight. My monthly grocery budget is €400, which is tight "
    "but doable for the two of us. Any tips for cheap meal planning?",
    "I'm trying to be more realistic about money this year. My monthly eating-out budget is €400, which "
    "is probably too generous if I'm honest. What do you think I should aim for?",
    COM,
    "other-subject",
)

# unrelated
L("Priya's flight lands at 9.", "Priya's cat is called Miso.", UNR, "topic-shift-same-name", "plan", "fact")
L(
    "My landlord is Mr. Okafor.",
    "By the way, I just finished another jigsaw puzzle.",
    UNR,
    "topic-shift-chatty",
    "fact",
    "observation",
)
L(
    "The dentist appointment is Thursday at 14:00.",
    "I'm thinking of repainting the hallway sage green.",
    UNR,
    "topic-shift",
    "fact",
    "plan",
)
L("Ana lives in Porto.", "Ana's favourite band is The Lanterns.", UNR, "topic-shift-same-name", "fact", "preference")
L("My pottery class is on Thursdays.", "The bins go out on Thursdays.", UNR, "topic-shift-shared-word")
L(
    "Order #48213 arrives on Friday.",
    "Zoe's birthday dinner is on Friday.",
    UNR,
    "topic-shift-shared-word",
    "fact",
    "plan",
)
L(
    "I take 50 mg of sertraline a day.",
    "Also, I bought another succulent for the windowsill.",
    UNR,
    "topic-shift-chatty",
    "fact",
    "observation",
)
L("Streamly costs €11.99 a month.", "Mateo's puppy is a beagle called Rocket.", UNR, "topic-shift")
L("My 5K personal best is 26:40.", "The wifi password is heron-bell-77.", UNR, "topic-shift")
L("Kenji works at Tallow Books.", "Kenji's daughter is learning the violin.", UNR, "topic-shift-same-name")
L(
    "My sister Ana's flight to Tallinn departs at 06:50.",
    "My sister Ana is allergic to cats.",
    UNR,
    "topic-shift-same-name",
    "plan",
    "fact",
)
L(
    "I'm saving €300 a month for the Japan trip.",
    "Another rainy day, so I stayed in and watched a film.",
    UNR,
    "topic-shift-chatty",
    "fact",
    "observation",
)
L("Oscar's birthday is on March 14.", "My car insurance renews on March 14.", UNR, "topic-shift-shared-word")
L("The recycling goes out on Tuesdays.", "Dr. Sato is my dentist.", UNR, "topic-shift")
L("Biscuit goes to Riverside Vets.", "I'm reading 'Tidewater' at the moment.", UNR, "topic-shift")
L("My partner's name is Jonas.", "My Spanish teacher is called Jonas.", UNR, "topic-shift-shared-word")
L(
    "Noor drives a Kia Niro.",
    "Noor's favourite dish is jollof rice.",
    UNR,
    "topic-shift-same-name",
    "fact",
    "preference",
)
L(
    "Our trip to Seville starts on May 2.",
    "Lena's daughter started school this week.",
    UNR,
    "topic-shift",
    "plan",
    "fact",
)
L(
    "The council tax bill is €140 a month.",
    "Oh, and I bumped into an old school friend at the market.",
    UNR,
    "topic-shift-chatty",
    "fact",
    "observation",
)
L("Dev has cello lessons on Saturdays.", "Dev's passport expires in 2029.", UNR, "topic-shift-same-name")
L(
    "My GP is Dr. Brennan.",
    "I'm looking for a good pasta recipe for Sunday.",
    UNR,
    "topic-shift",
    "fact",
    "open-question",
)
L("Task: order more food for Pepper.", "My broadband provider is Wavecrest.", UNR, "topic-shift", "task", "fact")
L(
    "Open question: which bank should I open a savings account with?",
    "Mei's partner is called Anders.",
    UNR,
    "topic-shift",
    "open-question",
    "fact",
)
L(
    "The dishwasher is a Bruna.",
    "By the way, the sunset tonight was incredible.",
    UNR,
    "topic-shift-chatty",
    "fact",
    "observation",
)
L(
    "Sofia lives in Ghent.",
    "The Ghent-style waffles at the Sunday market are my favourite treat.",
    UNR,
    "topic-shift-shared-word",
    "fact",
    "preference",
)
L(
    "Luca's usual coffee order is a cortado.",
    "Luca's car is due for a service on April 4.",
    UNR,
    "topic-shift-same-name",
    "preference",
    "fact",
)
L(
    "There are 8 sunflowers in the garden this year.",
    "My aunt Rosa has eight grandchildren.",
    UNR,
    "topic-shift-shared-word",
)
L("My salary is €52,000 a year.", "My favourite colour is forest green.", UNR, "topic-shift", "fact", "preference")
L(
    "I'm learning Italian on Tuesday evenings.",
    "Tuesday is when the window cleaner comes.",
    UNR,
    "topic-shift-shared-word",
)
L(
    "I'm trying to be better about keeping track of my health stuff. My physio session is on Wednesday at "
    "11:30, and I need to bring the exercise sheet with me. Could you remind me the night before?",
    "We had a lovely long lunch with friends today. By the way, I just discovered a great secondhand "
    "bookshop downtown, and I came home with far too many paperbacks. Any tips for fitting more shelves "
    "into a small flat?",
    UNR,
    "topic-shift-chatty",
    "fact",
    "observation",
)
L(
    "I'm putting together an itinerary so nothing slips through the cracks. Our hotel in Valencia is Hotel "
    "Brisa, right by the beach, for the whole week. What else should I book in advance?",
    "I've been reading through the family group chat. My cousin Jun's kids are both learning the piano, "
    "and they're doing really well at it. Any ideas for a music-themed birthday present for the older one?",
    UNR,
    "topic-shift",
    "plan",
    "fact",
)


# ---------------------------------------------------------------------------
# Assembly and checks
# ---------------------------------------------------------------------------

CUE_RE = re.compile(
    r"\b(now|moved|moves|changed|no longer|instead|switched|update|updated|starting|going forward|"
    r"anymore|these days|finally|rescheduled|used to|correction|new|upgraded|raised|went up|"
    r"up to|down to|stopped|quit|from now on|as of|renewed|extended|replaced|relocated|"
    r"transferred|got it wrong|had that wrong|went from|gone from|cut back|traded in|upped|"
    r"adjusted|swapped|delayed|reset|change of plan|finished|started|moved on|bumped|"
    r"knocked|raise|cut|resprayed)\b",
    re.I,
)


def build() -> list[Row]:
    r = random.Random(SEED)
    pairs: list[Pair] = []
    seen: set[tuple[str, str]] = set()
    per_gen: Counter[str] = Counter()

    def add(p: Pair | None, gen_key: str) -> bool:
        if p is None:
            return False
        ka, kb = norm(p["a"]), norm(p["b"])
        core = p.get("_core", (ka, kb))
        if ka == kb or core[0] == core[1] or (ka, kb) in seen or core in seen:
            return False
        seen.add((ka, kb))
        seen.add(core)
        pairs.append(p)
        per_gen[gen_key] += 1
        return True

    for lit in LITERALS:
        p: Pair = {**lit}
        p["_long"] = len(p["a"].split()) > 30 or len(p["b"].split()) > 30
        key = "other-subject" if p["frame"] == "other-subject-task" else p["frame"]
        assert FRAME_REL[p["frame"]] == p["relation"], p
        if not add(p, key):
            raise SystemExit("duplicate literal: " + p["a"])
    for key, quota in QUOTA.items():
        gen = GENERATORS[key]
        tries = 0
        while per_gen[key] < quota:
            tries += 1
            if tries > quota * 200:
                raise SystemExit(f"cannot fill frame {key}: {per_gen[key]}/{quota}")
            add(gen(r), key)
    r.shuffle(pairs)
    out: list[Row] = []
    for i, p in enumerate(pairs, 1):
        out.append(
            {
                "id": f"{SOURCE}-{i:05d}",
                "a": p["a"],
                "b": p["b"],
                "relation": p["relation"],
                "kind_a": p["kind_a"],
                "kind_b": p["kind_b"],
                "source": SOURCE,
                "frame": p["frame"],
                "_long": p["_long"],
            }
        )
    return out


def check(rows: list[Row]) -> list[tuple[str, ...]]:
    problems: list[tuple[str, ...]] = []
    for p in rows:
        if p["relation"] != FRAME_REL[p["frame"]]:
            problems.append(("relation/frame", p["id"]))
        if norm(p["a"]) == norm(p["b"]):
            problems.append(("same text", p["id"]))
        if p["relation"] == "contradicts" and (cue := CUE_RE.search(p["b"])):
            problems.append(("cue in contradicts", p["id"], cue.group(0), p["b"]))
        if p["frame"] == "cued-change" and not CUE_RE.search(p["b"]) and not p["id"].startswith("lit"):
            problems.append(("no cue in cued-change", p["id"], p["b"]))
        for t in (p["a"], p["b"]):
            if "{" in t or "}" in t or "[" in t or "  " in t:
                problems.append(("template residue", p["id"], t))
    for t in GEN_OPEN + MIDDLE + CLOSERS + CONNECTORS + functools.reduce(operator.iadd, DOM_OPEN.values(), []):
        if CUE_RE.search(t):
            problems.append(("cue word in filler", t))
    return problems


def summary(rows: list[Row]) -> None:
    rel = Counter(p["relation"] for p in rows)
    fr = Counter(p["frame"] for p in rows)
    n = len(rows)
    print(f"pairs: {n}")
    print("per relation:")
    for k, v in sorted(rel.items()):
        print(f"  {k:14s} {v:5d}  {100 * v / n:5.1f}%")
    print("per frame:")
    for k, v in sorted(fr.items(), key=lambda x: (FRAME_REL[x[0]], x[0])):
        print(f"  {FRAME_REL[k]:14s} {k:26s} {v:5d}")
    nlong = sum(p["_long"] for p in rows)
    texts = [t for p in rows for t in (p["a"], p["b"])]
    long_t = [t for t in texts if len(t.split()) >= 40]
    short_t = [t for t in texts if len(t.split()) < 40]
    print(f"long pairs (a or b is a chat turn): {nlong} ({100 * nlong / n:.1f}%)")
    print(
        f"long texts: {len(long_t)} ({100 * len(long_t) / len(texts):.1f}% of texts), "
        f"words {min(len(t.split()) for t in long_t)}-{max(len(t.split()) for t in long_t)}"
    )
    sw = [len(t.split()) for t in short_t]
    print(
        f"short texts: words {min(sw)}-{max(sw)}, "
        f"{100 * sum(6 <= w <= 25 for w in sw) / len(sw):.1f}% within 6-25 words"
    )
    kinds = Counter(k for p in rows for k in (p["kind_a"], p["kind_b"]))
    print("kinds:", dict(sorted(kinds.items())))
    names: set[str] = set()
    for p in rows:
        for t in (p["a"], p["b"]):
            for nm in ALL_NAMES:
                if re.search(r"\b" + re.escape(nm) + r"\b", t):
                    names.add(nm)
    print(f"distinct person names used: {len(names)}")
    ntempl = sum(len(a["base"]) + len(a["cued"]) + len(a["detail"]) + len(a["addl"]) for a in ATTRS.values())
    ntempl += sum(len(i["pos"]) + len(i["neg"]) + len(i["cneg"]) + len(i["cpos"]) for i in NEG)
    ntempl += sum(len(t["task"]) + len(t["still"]) + len(t["done"]) + len(t["cancel"]) for t in TASKS)
    ntempl += sum(len(q["q"]) + len(q["still"]) + len(q["ans"]) for q in QUESTIONS)
    print(
        f"attributes: {len(ATTRS)}, negation items: {len(NEG)}, tasks: {len(TASKS)}, "
        f"questions: {len(QUESTIONS)}, sentence templates: {ntempl}, literal pairs: {len(LITERALS)}"
    )


def main() -> int:
    rows = build()
    problems = check(rows)
    with open(OUT, "w", encoding="utf-8") as f:
        for p in rows:
            q = {k: v for k, v in p.items() if not k.startswith("_")}
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}")
    summary(rows)
    if problems:
        print(f"{len(problems)} problems:")
        for x in problems[:60]:
            print("  ", x)
    if "--check" in sys.argv:
        r = random.Random(1)
        for p in r.sample(rows, 40):
            print(f"\n[{p['id']}] {p['relation']} / {p['frame']} ({p['kind_a']}->{p['kind_b']})")
            print("  A:", p["a"])
            print("  B:", p["b"])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
