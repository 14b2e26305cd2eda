// The blocks of one type by name. Declaring a block and resolving a reference to it both look a
// name up, and references read the name straight out of the source text; so the table is keyed
// by a hash of the name's characters (open addressing over typed arrays) and a name is never
// needed as a separate string key. One table serves both, where a Map of names plus a Map of
// hashes cost a string hash per block and a second table built on the first reference.
import { type BlockDecl } from "./declarations.js";

/** A hash of s[from, to) (30 bits, a small integer), the same for a name and its text in the source. */
export function nameHash(s: string, from: number, to: number): number {
  let h = 0x811c9dc5 & 0x3fffffff;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) & 0x3fffffff;
  return h;
}

export class BlockNames {
  /**
   * Two entries per slot: the name's hash, then 0 when the slot is empty or else 1 + the block's
   * index in `decls` (side by side: a probe reads one cache line).
   */
  private slots: Int32Array;
  private readonly decls: BlockDecl[] = [];

  /** `expected`: how many names are coming, when known (a table sized for them is never rehashed on the way) */
  constructor(expected = 0) {
    let length = 128;
    while (expected * 4 > length) length *= 2;
    this.slots = new Int32Array(length);
  }

  get size(): number {
    return this.decls.length;
  }

  /** The block declared first. */
  /** every block declared under its own name (the first of each name), in declaration order */
  get all(): readonly BlockDecl[] {
    return this.decls;
  }

  get first(): BlockDecl | undefined {
    return this.decls[0];
  }

  /** Declares a block under its name; returns the block already declared under that name instead, if any. */
  add(decl: BlockDecl): BlockDecl | undefined {
    const name = decl.name;
    const h = nameHash(name, 0, name.length);
    let slots: Int32Array = this.slots;
    let mask = slots.length - 2;
    let i = (h << 1) & mask;
    for (let slot = slots[i + 1]!; slot !== 0; slot = slots[(i = (i + 2) & mask) + 1]!) {
      if (slots[i] === h && this.decls[slot - 1]!.name === name) return this.decls[slot - 1];
    }
    this.decls.push(decl);
    // at most half full: probe runs stay short
    if (this.decls.length * 4 > slots.length) {
      slots = this.rehash(slots.length * 2);
      mask = slots.length - 2;
      i = (h << 1) & mask;
      while (slots[i + 1] !== 0) i = (i + 2) & mask;
    }
    slots[i] = h;
    slots[i + 1] = this.decls.length;
    return undefined;
  }

  /** The block named s[from, to) (an unescaped name as it appears in source text), if declared. */
  find(s: string, from: number, to: number): BlockDecl | undefined {
    const h = nameHash(s, from, to);
    const slots = this.slots;
    const mask = slots.length - 2;
    const length = to - from;
    let i = (h << 1) & mask;
    for (let slot = slots[i + 1]!; slot !== 0; slot = slots[(i = (i + 2) & mask) + 1]!) {
      if (slots[i] !== h) continue;
      const decl = this.decls[slot - 1]!;
      if (decl.name.length === length && s.startsWith(decl.name, from)) return decl;
    }
    return undefined;
  }

  get(name: string): BlockDecl | undefined {
    return this.find(name, 0, name.length);
  }

  has(name: string): boolean {
    return this.find(name, 0, name.length) !== undefined;
  }

  private rehash(length: number): Int32Array {
    const old = this.slots;
    const slots = new Int32Array(length);
    const mask = length - 2;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      const h = old[i]!;
      let j = (h << 1) & mask;
      while (slots[j + 1] !== 0) j = (j + 2) & mask;
      slots[j] = h;
      slots[j + 1] = old[i + 1]!;
    }
    this.slots = slots;
    return slots;
  }
}
