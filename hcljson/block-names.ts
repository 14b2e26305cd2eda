// The blocks of one type by name. Declaring a block and resolving a reference to it both look a
// name up, and references read the name straight out of the source text; so the table is keyed
// by a hash of the name's characters (open addressing over typed arrays) and a name is never
// needed as a separate string key. One table serves both, where a Map of names plus a Map of
// hashes cost a string hash per block and a second table built on the first reference.
import type { BlockDecl } from "./context.js";

/** A hash of s[from, to) (30 bits, a small integer), the same for a name and its text in the source. */
export function nameHash(s: string, from: number, to: number): number {
  let h = 0x811c9dc5 & 0x3fffffff;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) & 0x3fffffff;
  return h;
}

export class BlockNames {
  /** per slot: 0 when empty, else 1 + the block's index in `decls` */
  private slots = new Int32Array(64);
  /** per slot: the hash of the name in it (compared before the name itself is touched) */
  private hashes = new Int32Array(64);
  private readonly decls: BlockDecl[] = [];

  get size(): number {
    return this.decls.length;
  }

  /** Declares a block under its name; returns the block already declared under that name instead, if any. */
  add(decl: BlockDecl): BlockDecl | undefined {
    const name = decl.name;
    const h = nameHash(name, 0, name.length);
    let mask = this.slots.length - 1;
    let i = h & mask;
    for (let slot = this.slots[i]!; slot !== 0; slot = this.slots[(i = (i + 1) & mask)]!) {
      if (this.hashes[i] === h && this.decls[slot - 1]!.name === name) return this.decls[slot - 1];
    }
    this.decls.push(decl);
    // at most half full: probe runs stay short
    if (this.decls.length * 2 > this.slots.length) {
      this.rehash(this.slots.length * 2);
      mask = this.slots.length - 1;
      i = h & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
    }
    this.slots[i] = this.decls.length;
    this.hashes[i] = h;
    return undefined;
  }

  /** The block named s[from, to) (an unescaped name as it appears in source text), if declared. */
  find(s: string, from: number, to: number): BlockDecl | undefined {
    const h = nameHash(s, from, to);
    const mask = this.slots.length - 1;
    const length = to - from;
    let i = h & mask;
    for (let slot = this.slots[i]!; slot !== 0; slot = this.slots[(i = (i + 1) & mask)]!) {
      if (this.hashes[i] !== h) continue;
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

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    const hashes = new Int32Array(size);
    const mask = size - 1;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i]!;
      if (slot === 0) continue;
      const h = this.hashes[i]!;
      let j = h & mask;
      while (slots[j] !== 0) j = (j + 1) & mask;
      slots[j] = slot;
      hashes[j] = h;
    }
    this.slots = slots;
    this.hashes = hashes;
  }
}
