/**
 * The structured-metadata equalities a log query's surviving lines all satisfy, from the label
 * filters at the start of its pipeline (`{app="x"} | trace_id="abc"`, line filters only before
 * them): with no parser or formatter yet, such a label is a stream label or structured
 * metadata. Sources skip chunk blocks that provably hold no entry with the value (where the
 * stream itself has no label of that name); the pipeline still applies the filter.
 */
import type { MetadataEquals } from '@logsvc/chunk';
import type { LabelFilter, PipelineStage } from '../../syntax/ast';

export function leadingMetadataEquals(
  ordered: readonly PipelineStage[],
): MetadataEquals[] | undefined {
  const out: MetadataEquals[] = [];
  for (const node of ordered) {
    if (node.kind === 'LineFilter') continue;
    if (node.kind !== 'LabelFilterStage') break;
    collect(node.filter, out);
  }
  return out.length > 0 ? out : undefined;
}

/** The conjuncts of `filter` that are `name="non-empty"` on a name metadata is offered under. */
function collect(filter: LabelFilter, out: MetadataEquals[]): void {
  if (filter.kind === 'BinaryLabelFilter') {
    if (filter.op === 'and') {
      collect(filter.left, out);
      collect(filter.right, out);
    }
    return;
  }
  if (filter.kind !== 'StringLabelFilter') return;
  const { type, name, value } = filter.matcher;
  // `__error__` is the pipeline's, and a metadata name clashing with a stream label is offered
  // as `<name>_extracted`: neither is pushed down.
  if (type !== '=' || value === '' || name.startsWith('__') || name.endsWith('_extracted')) return;
  out.push({ name, value });
}
