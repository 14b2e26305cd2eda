// Time values as Terraform's time functions read them (Go's time package rules).

const UNITS = new Set(["ns", "us", "µs", "μs", "ms", "s", "m", "h"]);

/**
 * Why Go's time.ParseDuration refuses `text` (timeadd's second argument), in its own words, or
 * null when it is a duration: a sign, then one or more decimal numbers each followed by a unit
 * (ns, us, ms, s, m, h), or a bare "0".
 */
export function durationError(text: string): string | null {
  const invalid = `time: invalid duration ${JSON.stringify(text)}`;
  let rest = text.startsWith("-") || text.startsWith("+") ? text.slice(1) : text;
  if (rest === "0") return null;
  if (rest === "") return invalid;
  while (rest !== "") {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    if (number[1] === "" && !number[2]) return invalid;
    rest = rest.slice(number[0].length);
    const unit = /^[^0-9.]*/.exec(rest)![0];
    if (unit === "") return `time: missing unit in duration ${JSON.stringify(text)}`;
    if (!UNITS.has(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`;
    rest = rest.slice(unit.length);
  }
  return null;
}
