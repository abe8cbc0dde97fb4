/**
 * The text `robo.help()` shows inside a cell, generated from the primitive specs so the cell's
 * calling convention (positional arguments, then one options object) is documented where it is used.
 */
import type { PrimitiveSpec } from '../primitives/types';

export interface SpecDoc {
  name: string;
  summary: string;
  signature: string;
  doc: string;
}

export function cellSignature(spec: PrimitiveSpec): string {
  const params = spec.positional.map((p) => (p.optional ? `${p.name}?` : p.name));
  if (spec.options.length > 0) params.push(`{ ${spec.options.map((o) => o.name).join(', ')} }?`);
  return `robo.${spec.name}(${params.join(', ')})`;
}

export function specDocs(specs: PrimitiveSpec[]): SpecDoc[] {
  return specs.map((spec) => {
    const lines = [cellSignature(spec), `  ${spec.summary}`];
    for (const p of spec.positional) lines.push(`  ${p.name}${p.optional ? ' (optional)' : ''}: ${p.type} — ${p.doc}`);
    for (const o of spec.options) lines.push(`  option ${o.name}: ${o.type} — ${o.doc}`);
    if (spec.returns.length > 0) lines.push(`  returns { ${spec.returns.map((r) => `${r.name}: ${r.type}`).join(', ')} }`);
    return { name: spec.name, summary: spec.summary, signature: cellSignature(spec), doc: lines.join('\n') };
  });
}
