#!/usr/bin/env python3
"""Cut Noto Sans CJK JP down to what the /odds chart can be asked to draw in Japanese.

Run from the repository root (needs Debian's fonts-noto-cjk and python3-fonttools; Debian's python3):
    /usr/bin/python3 commands/assets/fonts/subset.py
Keeps Basic Latin, Latin-1, Greek, general and CJK punctuation, kana, full-width forms, and
every character of U+3000..U+9FFF and U+FF00..U+FFEF that the bot's sources (src/,
commands/src/) contain, so every Japanese word the bot writes can be drawn.
"""
import os
import subprocess
import sys

SRC = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
OUT = "commands/assets/fonts/NotoSansCJKjp-saikoro.otf"
FONT_NUMBER = "0"  # Noto Sans CJK JP within the collection

ranges = [
    (0x20, 0x7E), (0xA0, 0xFF), (0x370, 0x3FF), (0x2000, 0x206F),
    (0x3000, 0x303F), (0x3040, 0x30FF), (0xFF00, 0xFFEF),
]
chars = set()
for root in ["src", "commands/src"]:
    for dirpath, _, files in os.walk(root):
        for name in files:
            if name.endswith(".rs"):
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="ignore") as f:
                    for c in f.read():
                        if 0x3000 <= ord(c) <= 0x9FFF or 0xFF00 <= ord(c) <= 0xFFEF:
                            chars.add(ord(c))
codes = set()
for lo, hi in ranges:
    codes.update(range(lo, hi + 1))
codes |= chars
unicodes = ",".join(f"U+{c:04X}" for c in sorted(codes))
subprocess.run(
    [sys.executable, "-m", "fontTools.subset", SRC, f"--font-number={FONT_NUMBER}", f"--unicodes={unicodes}",
     f"--output-file={OUT}", "--layout-features=*", "--no-hinting", "--desubroutinize"],
    check=True,
)
print(OUT, os.path.getsize(OUT), "bytes,", len(codes), "characters")
