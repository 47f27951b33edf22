// The game chooser: the search box keeps the games whose name, family or description hold every word typed.
const search = document.getElementById("search");
const found = document.getElementById("found");
const games = [...document.querySelectorAll("#games > li.game")];

function filter() {
  const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const game of games) {
    const keep = words.every((word) => game.dataset.search.includes(word));
    game.hidden = !keep;
    if (keep) shown += 1;
  }
  found.textContent = words.length ? `${shown} of ${games.length} games` : "";
}

search.addEventListener("input", filter);
filter();
