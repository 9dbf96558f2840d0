import { MAX_ADDRESS_LENGTH } from "../dist/address/resolve.js";
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = s + 1831565813 >>> 0;
    let t = s;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
const pick = (rnd, list) => list[Math.floor(rnd() * list.length)];
const khmerDigits = (text) => text.replace(/[0-9]/g, (d) => String.fromCharCode(6112 + Number(d)));
function chainOf(gazetteer, unit) {
  return [unit, ...gazetteer.ancestors(unit.code).reverse()];
}
const latinWord = (u) => u.level === "province" ? u.type === "capital" ? "Capital" : "Province" : u.unit_type_latin;
const englishWord = (u) => u.level === "province" ? "Province" : u.unit_type_en;
const STYLES = [
  // ភូមិ… ឃុំ… ស្រុក… ខេត្ត…
  (chain) => chain.map((u) => `${u.unit_type_km}${u.name_km}`).join(" "),
  // No spaces at all.
  (chain) => chain.map((u) => `${u.unit_type_km}${u.name_km}`).join(""),
  // House and street first, Khmer digits.
  (chain, rnd) => `\u1795\u17D2\u1791\u17C7\u179B\u17C1\u1781${khmerDigits(String(1 + Math.floor(rnd() * 300)))} \u1795\u17D2\u179B\u17BC\u179C${khmerDigits(String(1 + Math.floor(rnd() * 600)))} ` + chain.map((u) => `${u.unit_type_km} ${u.name_km}`).join(" "),
  // Phum X, Khum Y, Srok Z, Kampot Province
  (chain) => chain.map((u) => u.level === "province" ? `${u.name_latin} ${latinWord(u)}` : `${latinWord(u)} ${u.name_latin}`).join(", "),
  // X Village, Y Commune, Z District, W Province
  (chain) => chain.map((u) => `${u.name_latin} ${englishWord(u)}`).join(", "),
  // Names only, with commas.
  (chain) => chain.map((u) => u.name_latin).join(", "),
  // House number, street, names only, no commas, lower case.
  (chain, rnd) => `No. ${1 + Math.floor(rnd() * 200)}, St. ${1 + Math.floor(rnd() * 600)} ${chain.map((u) => u.name_latin.toLowerCase()).join(" ")}`,
  // The village and commune only, then the province and the postal code.
  (chain) => `${chain.slice(0, 2).map((u) => `${latinWord(u)} ${u.name_latin}`).join(", ")}, ${chain.at(-1).name_latin} ${chain[0].postal_code}`,
  // Mixed scripts: Khmer village and commune, Latin district and province.
  (chain) => `${chain.slice(0, 2).map((u) => `${u.unit_type_km}${u.name_km}`).join(" ")}, ${chain.slice(2).map((u) => u.name_latin).join(", ")}`
];
function distinctAddresses(gazetteer, count, seed = 1) {
  const rnd = random(seed);
  const units = gazetteer.units.filter((u) => u.level === "village" || u.level === "commune");
  const out = /* @__PURE__ */ new Set();
  for (let tries = 0; out.size < count && tries < count * 4; tries++) {
    const address = pick(rnd, STYLES)(chainOf(gazetteer, pick(rnd, units)), rnd);
    if (address.length <= MAX_ADDRESS_LENGTH) out.add(address);
  }
  return [...out];
}
function typo(word, rnd) {
  if (word.length < 3) return word;
  const i = 1 + Math.floor(rnd() * (word.length - 2));
  switch (Math.floor(rnd() * 4)) {
    case 0:
      return word.slice(0, i) + pick(rnd, [..."aeiouhkmnprst"]) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    case 2:
      return word.slice(0, i) + word[i] + word.slice(i);
    default:
      return word.slice(0, i - 1) + word[i] + word[i - 1] + word.slice(i + 1);
  }
}
function fill(next, sep = " ") {
  let text = next();
  for (; ; ) {
    const piece = next();
    if (text.length + sep.length + piece.length > MAX_ADDRESS_LENGTH) return text;
    text += sep + piece;
  }
}
function hostileInputs(gazetteer, seed = 7) {
  const rnd = random(seed);
  const units = gazetteer.units;
  const latin = () => pick(rnd, units).name_latin;
  const khmer = () => pick(rnd, units).name_km;
  const byName = /* @__PURE__ */ new Map();
  for (const u of units) byName.set(u.name_latin, (byName.get(u.name_latin) ?? 0) + 1);
  const common = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([name]) => name);
  const unitWords = ["Phum", "Khum", "Sangkat", "Srok", "Khan", "Krong", "Province", "Village", "Commune", "District"];
  const khmerUnitWords = ["\u1797\u17BC\u1798\u17B7", "\u1783\u17BB\u17C6", "\u179F\u1784\u17D2\u1780\u17B6\u178F\u17CB", "\u179F\u17D2\u179A\u17BB\u1780", "\u1781\u178E\u17D2\u178C", "\u1780\u17D2\u179A\u17BB\u1784", "\u1781\u17C1\u178F\u17D2\u178F"];
  const out = [];
  const add = (label, input) => out.push({ label, input: input.slice(0, MAX_ADDRESS_LENGTH) });
  for (let k = 0; k < 5; k++) {
    add("latin names", fill(latin));
    add("latin names, commas", fill(latin, ", "));
    add("latin names, no spaces", fill(() => latin().replace(/ /g, ""), ""));
    add("latin names with typos", fill(() => latin().split(" ").map((w) => typo(w, rnd)).join(" ")));
    add("latin unit words and names", fill(() => `${pick(rnd, unitWords)} ${latin()}`));
    add("khmer names, no spaces", fill(khmer, ""));
    add("khmer names, spaces", fill(khmer));
    add("khmer unit words and names", fill(() => `${pick(rnd, khmerUnitWords)}${khmer()}`, ""));
    add("khmer names with typos", fill(() => {
      const name = khmer();
      const i = Math.floor(rnd() * name.length);
      return name.slice(0, i) + name.slice(i + 1);
    }, ""));
    add("mixed scripts", fill(() => rnd() < 0.5 ? latin() : khmer()));
    add("random letters", fill(() => Array.from({ length: 2 + Math.floor(rnd() * 8) }, () => pick(rnd, [..."abcdefghijklmnoprstuy"])).join("")));
  }
  const common0 = common[0];
  add("Phum 1 Phum 2 ...", fill(/* @__PURE__ */ (() => {
    let n = 0;
    return () => `Phum ${++n}`;
  })()));
  add("Phum 1 repeated", fill(() => "Phum 1"));
  add("\u1797\u17BC\u1798\u17B7\u17E1 \u1797\u17BC\u1798\u17B7\u17E2 ...", fill(/* @__PURE__ */ (() => {
    let n = 0;
    return () => `\u1797\u17BC\u1798\u17B7${khmerDigits(String(++n))}`;
  })(), ""));
  add("most common name repeated", fill(() => common0));
  add("common names", fill(() => pick(rnd, common)));
  add("common names, commas", fill(() => pick(rnd, common), ", "));
  add("common names with unit words", fill(() => `${pick(rnd, unitWords)} ${pick(rnd, common)}`));
  add("Thmei Thmei ...", fill(() => "Thmei"));
  add("Kandal Kandal ...", fill(() => "Kandal"));
  add("\u1790\u17D2\u1798\u17B8\u1790\u17D2\u1798\u17B8...", fill(() => "\u1790\u17D2\u1798\u17B8", ""));
  add("ticker of unit words", fill(() => pick(rnd, unitWords)));
  add("ticker of Khmer unit words", fill(() => pick(rnd, khmerUnitWords), ""));
  add("digits", fill(() => String(Math.floor(rnd() * 1e6))));
  add("number words", fill(() => pick(rnd, ["Ti", "Muoy", "Pir", "Bei", "Buon", "Pram", "Dab", "Mphey", "Lekh", "No"])));
  add("house numbers and streets", fill(() => `#${Math.floor(rnd() * 999)} St. ${Math.floor(rnd() * 999)}`, ", "));
  add("combining marks on a name", `Phnom Penh${"\u0301".repeat(MAX_ADDRESS_LENGTH - 10)}`);
  add("combining marks on each letter", fill(() => `${latin()}`.replace(/(.)/g, "$1\u0300\u0308")));
  add("Khmer signs run", `\u1797\u17BC\u1798\u17B7${"\u17CB".repeat(MAX_ADDRESS_LENGTH - 4)}`);
  add("Khmer coeng run", `\u1797${"\u17D2\u1798".repeat(240)}`);
  add("NFKD expanders", "\uFDFA".repeat(MAX_ADDRESS_LENGTH));
  add("NFKD ligatures", "\uFB03".repeat(MAX_ADDRESS_LENGTH));
  add("NFKD ligatures and spaces", "\uFB03 \u3389 \u2177 \u2121 ".repeat(MAX_ADDRESS_LENGTH / 10));
  add("one long word", "a".repeat(MAX_ADDRESS_LENGTH));
  add("one long Khmer word", "\u1780".repeat(MAX_ADDRESS_LENGTH));
  add("zero-width characters", fill(() => `${khmer()}\u200B`, ""));
  return out;
}
export {
  distinctAddresses,
  hostileInputs,
  random
};
