/** The one comparison of typed text with marketplace text (src/domain/text_match.ts). */

import assert from "node:assert/strict";
import { foldText, foldWord, TextQuery } from "../src/domain/text_match.ts";

Deno.test("folding: case, accents, letters NFKD keeps, separators, English plurals", () => {
  assert.equal(foldText("Café Crêperie"), "cafe creperie");
  assert.equal(foldText("Smørrebrød & Straße"), "smorrebrod strasse");
  assert.equal(foldText("  kallio-burger\n"), "kallio burger");
  assert.equal(foldText("Σουβλάκια"), "σουβλακια");
  for (
    const [word, folded] of [
      ["burgers", "burger"],
      ["pizzas", "pizza"],
      ["fries", "fry"],
      ["berries", "berry"],
      ["sandwiches", "sandwich"],
      ["dishes", "dish"],
      ["boxes", "box"],
      ["tomatoes", "tomato"],
      ["glasses", "glass"],
      ["cheeses", "cheese"],
      ["tacos", "taco"],
      // Left alone: short words, -ss/-us/-is words, words ending in a digit.
      ["bus", "bus"],
      ["glass", "glass"],
      ["hummus", "hummus"],
      ["anis", "anis"],
      ["pies", "pie"],
      ["7up", "7up"],
    ]
  ) assert.equal(foldWord(word), folded, word);
});

Deno.test("TextQuery: every word somewhere in the field, case, accents and plurals aside", () => {
  const burgers = new TextQuery("Burgers");
  for (const field of ["Kallio Burger", "kallio-burger", "Smash burgers", "Classic cheeseburger", "BURGER"]) {
    assert.ok(burgers.matches(field), field);
  }
  assert.ok(!burgers.matches("Burrito Bros"));
  assert.ok(!burgers.matches(null) && !burgers.matches(""));
  assert.ok(new TextQuery("cafe").matches("Café Kanelipulla"));
  assert.ok(new TextQuery("café").matches("cafe-kanelipulla"));
  assert.ok(new TextQuery("pizzas").matches("Pizza Vuosaari"));
  assert.ok(new TextQuery("smash burger").matches("Double smash burgers"));
  assert.ok(!new TextQuery("smash burger").matches("Double smash"), "every word must occur");
  // A query with no letters or digits matches nothing (it is not "everything").
  assert.ok(new TextQuery("--").empty);
  assert.ok(!new TextQuery("--").matches("anything"));
  // The same term: whole, not contained.
  assert.ok(new TextQuery("Burger").same("burgers"));
  assert.ok(new TextQuery("middle eastern").same("Middle-Eastern"));
  assert.ok(!new TextQuery("burger").same("cheeseburger"));
  assert.ok(new TextQuery("Crêpes").same("crepe") && !new TextQuery("--").same("--"));
});
