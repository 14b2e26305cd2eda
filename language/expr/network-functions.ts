// cidrsubnet and cidrhost on known arguments: Terraform's errors for a prefix out of room or a
// host number out of range (IPv4; an IPv6 prefix is left unknown).
import { UNKNOWN, asNumber, badArgument, callFailed, fail, type Known } from "./known.js";

/**
 * cidrsubnet(prefix, newbits, netnum) over IPv4: an invalid prefix, more bits than the address
 * has, or a network number that does not fit are the call's errors; IPv6 is left unknown.
 */
export function cidrsubnet(prefix: string, newbits: Known, netnum: Known): Known {
  const parsed = ipv4Prefix(prefix);
  if (parsed === "ipv6") return UNKNOWN;
  if (parsed === null) callFailed("cidrsubnet", `invalid CIDR expression: invalid CIDR address: ${prefix}`);
  const extra = asNumber(newbits);
  const n = asNumber(netnum);
  if (extra === UNKNOWN || n === UNKNOWN || !Number.isInteger(extra) || !Number.isInteger(n)) return UNKNOWN;
  const { base, bits } = parsed;
  if (extra < 0 || n < 0) return UNKNOWN;
  if (bits + extra > 32) callFailed("cidrsubnet", `insufficient address space to extend prefix of ${bits} by ${extra}`);
  if (n >= 2 ** extra) callFailed("cidrsubnet", `prefix extension of ${extra} does not accommodate a subnet numbered ${n}`);
  const size = 2 ** (32 - bits);
  const network = base - (base % size) + n * 2 ** (32 - bits - extra);
  return `${[24, 16, 8, 0].map((shift) => Math.floor(network / 2 ** shift) % 256).join(".")}/${bits + extra}`;
}

/**
 * cidrhost(prefix, hostnum) for IPv4 prefixes; an invalid prefix, or a host number outside it, is
 * the error Terraform reports (so `can(cidrhost(var.cidr, 0))` is false). IPv6 is left unknown.
 */
export function cidrhost(prefix: string, hostnum: Known): Known {
  const parsed = ipv4Prefix(prefix);
  if (parsed === "ipv6") return UNKNOWN;
  if (parsed === null) fail("Invalid function argument", `Invalid value for "prefix" parameter: invalid CIDR expression: invalid CIDR address: ${prefix}.`);
  const n = asNumber(hostnum);
  if (n === UNKNOWN || !Number.isInteger(n)) return UNKNOWN;
  const { base, bits } = parsed;
  const size = 2 ** (32 - bits);
  const host = n < 0 ? size + n : n;
  if (host < 0 || host >= size) fail("Error in function call", `Call to function "cidrhost" failed: prefix of ${bits} does not accommodate a host numbered ${n}.`);
  const network = base - (base % size);
  const value = network + host;
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** cidrsubnets(prefix, newbits…) over IPv4: a new prefix longer than 32 bits is refused (the allocation itself is left unknown). */
export function cidrsubnets(prefix: string, newbits: Known[]): Known {
  const parsed = ipv4Prefix(prefix);
  if (parsed === null || parsed === "ipv6") return UNKNOWN;
  for (const extra of newbits.map(asNumber)) {
    if (extra !== UNKNOWN && Number.isInteger(extra) && parsed.bits + extra > 32) badArgument("newbits", `would extend prefix to ${parsed.bits + extra} bits, which is too long for an IPv4 address`);
  }
  return UNKNOWN;
}

/** An IPv4 prefix "a.b.c.d/n" as its address and bits; "ipv6" for an IPv6 one (left unknown); null when invalid. */
function ipv4Prefix(prefix: string): { base: number; bits: number } | "ipv6" | null {
  const slash = prefix.indexOf("/");
  const address = slash < 0 ? prefix : prefix.slice(0, slash);
  const bitsText = slash < 0 ? "" : prefix.slice(slash + 1);
  if (address.includes(":") && /^[0-9]{1,3}$/.test(bitsText)) return "ipv6";
  const octets = address.split(".");
  const valid = octets.length === 4 && octets.every((o) => /^(0|[1-9][0-9]{0,2})$/.test(o) && Number(o) <= 255) && /^(0|[1-9][0-9]?)$/.test(bitsText) && Number(bitsText) <= 32;
  if (!valid) return null;
  return { base: octets.reduce((acc, o) => acc * 256 + Number(o), 0), bits: Number(bitsText) };
}

/** cidrnetmask(prefix): a prefix that is not a CIDR address is the call's error (IPv6 is left to the caller). */
export function cidrnetmask(prefix: string): void {
  if (ipv4Prefix(prefix) === null) callFailed("cidrnetmask", `invalid CIDR expression: invalid CIDR address: ${prefix}`);
}

/** cidrnetmask's value for an IPv4 prefix: the mask in dotted decimal; UNKNOWN for anything else. */
export function cidrnetmaskValue(prefix: string): Known {
  const p = ipv4Prefix(prefix);
  if (p === null || p === "ipv6") return UNKNOWN;
  const mask = p.bits === 0 ? 0 : (0xffffffff << (32 - p.bits)) >>> 0;
  return [24, 16, 8, 0].map((shift) => (mask >>> shift) & 255).join(".");
}
