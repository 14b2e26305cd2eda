// IPv4 prefixes as cidrsubnet and cidrhost (evaluate.ts) read them.

/** An IPv4 prefix "a.b.c.d/n" as its address and bits; "ipv6" for an IPv6 one (left unknown); null when invalid. */
export function ipv4Prefix(prefix: string): { base: number; bits: number } | "ipv6" | null {
  const slash = prefix.indexOf("/");
  const address = slash < 0 ? prefix : prefix.slice(0, slash);
  const bitsText = slash < 0 ? "" : prefix.slice(slash + 1);
  if (address.includes(":") && /^[0-9]{1,3}$/.test(bitsText)) return "ipv6";
  const octets = address.split(".");
  const valid = octets.length === 4 && octets.every((o) => /^(0|[1-9][0-9]{0,2})$/.test(o) && Number(o) <= 255) && /^(0|[1-9][0-9]?)$/.test(bitsText) && Number(bitsText) <= 32;
  if (!valid) return null;
  return { base: octets.reduce((acc, o) => acc * 256 + Number(o), 0), bits: Number(bitsText) };
}
