"""Tests of obfuscate.py's program transformations on hand-made programs: what
each attack changes, and what it must leave alone. Run from this folder:
python3 -m unittest"""

from __future__ import annotations

import random
import unittest

import obfuscate as attack

PROGRAM = """
import java.util.*;
// a comment
class Main {
    static int total;
    static int sum(int[] nums, int n) {
        int s = 0;
        int t = 1;
        for (int i = 0; i < n; i++) {
            s += nums[i];
        }
        System.out.println(s);
        return s;
    }
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt();
        int[] a = new int[n];
        total = sum(a, n);
    }
}
"""


def words(text: str) -> list[str]:
    return [tok.text for tok in attack.lex(text)]


def run(steps: list[str], seed: int = 0) -> str:
    return attack.attack(PROGRAM, steps, "java", seed)


class Attacks(unittest.TestCase):
    def test_format_keeps_every_token_and_drops_comments(self):
        out = run([])
        self.assertEqual(words(out), words(PROGRAM))
        self.assertNotIn("a comment", out)

    def test_rename_renames_declared_names_consistently_and_no_library_name(self):
        out = run(["rename"])
        self.assertEqual(len(words(out)), len(words(PROGRAM)))
        for name in ("total", "nums", "sum"):
            self.assertNotIn(name, words(out))
        for name in ("System", "println", "Scanner", "nextInt", "main", "args"):
            self.assertIn(name, words(out))
        # Each old name maps to one new name.
        mapping = {}
        for old, new in zip(words(PROGRAM), words(out)):
            self.assertEqual(mapping.setdefault(old, new), new)

    def test_dead_code_adds_only_statements_on_fresh_names(self):
        out = run(["dead-100"])
        added = [w for w in words(out) if w.startswith("dead")]
        self.assertTrue(added)
        original = words(PROGRAM)
        rest = [w for w in words(out)]
        # Removing the inserted statements gives the program back.
        kept, skip = [], False
        for i, w in enumerate(rest):
            if w.startswith("dead") or (i > 0 and rest[i - 1].startswith("dead")):
                skip = True
            if skip:
                # Drop back to the previous `;` and up to this one.
                while kept and kept[-1] != ";" and kept[-1] != "{" and kept[-1] != "}":
                    kept.pop()
                if w == ";":
                    skip = False
                continue
            kept.append(w)
        self.assertEqual(kept, original)

    def test_reorder_swaps_only_independent_statements(self):
        out = run(["reorder"])
        self.assertEqual(sorted(words(out)), sorted(words(PROGRAM)))
        text = " ".join(words(out))
        # `int t = 1 ;` is independent of `int s = 0 ;` and comes first now.
        self.assertLess(text.index("int t = 1"), text.index("int s = 0"))
        # Dependent statements keep their order.
        self.assertLess(text.index("int n = in"), text.index("int [ ] a = new int [ n ]"))

    def test_loops_become_while_loops(self):
        out = run(["loops"])
        self.assertNotIn("for", words(out))
        self.assertIn("while ( i < n ) { s += nums [ i ] ; i ++ ; }", " ".join(words(out)))

    def test_extract_moves_statements_into_helpers_called_with_their_locals(self):
        outs = [" ".join(words(attack.attack(PROGRAM, ["extract"], "java", seed))) for seed in range(10)]
        extracted = [out for out in outs if "helper" in out]
        self.assertTrue(extracted)
        for out in extracted:
            self.assertEqual(out.count("{"), out.count("}"))
        # The print of `s` moves with `s` as an argument.
        printed = [out for out in extracted if "println ( s )" in out and "helper1 ( s ) ;" in out]
        for out in printed:
            self.assertIn("private static void helper1 ( int s ) { System . out . println ( s ) ; }", out)

    def test_every_original_parses_and_attacks_without_error(self):
        for steps in attack.ATTACKS.values():
            for seed in range(3):
                attack.attack(PROGRAM, steps, "java", seed)

    def test_c_programs_are_attacked_too(self):
        source = "#include <stdio.h>\nint main() { int n; scanf(\"%d\", &n); int s = 0; for (int i = 0; i < n; i++) s += i; printf(\"%d\", s); return 0; }\n"
        out = attack.attack(source, attack.ATTACKS["level-5"], "c", 4)
        self.assertIn("#include <stdio.h>", out)
        self.assertIn("while", words(out))
        self.assertIn("scanf", words(out))

    def test_the_same_seed_gives_the_same_copy(self):
        self.assertEqual(run(attack.ATTACKS["level-5"], 7), run(attack.ATTACKS["level-5"], 7))
        rng = random.Random(1)
        self.assertTrue(0 <= rng.random() < 1)


if __name__ == "__main__":
    unittest.main()
