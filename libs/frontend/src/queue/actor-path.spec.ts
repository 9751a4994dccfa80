import { describe, expect, it } from 'vitest';
import { actorPathHeader, parseActorPath, queuePathFor } from './actor-path';

describe('actor path', () => {
  it('splits the header as Loki does', () => {
    expect(parseActorPath(undefined)).toEqual([]);
    expect(parseActorPath('')).toEqual([]);
    expect(parseActorPath('grafana')).toEqual(['grafana']);
    expect(parseActorPath('a|b|c')).toEqual(['a', 'b', 'c']);
    expect(parseActorPath('a||b|')).toEqual(['a', '', 'b', '']);
  });

  it('prefers X-Logsvc-Actor-Path over X-Loki-Actor-Path', () => {
    const h = (headers: Record<string, string>) => (name: string) => headers[name.toLowerCase()];
    expect(actorPathHeader(h({ 'x-logsvc-actor-path': 'a', 'x-loki-actor-path': 'b' }))).toBe('a');
    expect(actorPathHeader(h({ 'x-loki-actor-path': 'b' }))).toBe('b');
    expect(actorPathHeader(h({}))).toBeUndefined();
  });

  it('applies max_queue_hierarchy_levels', () => {
    expect(queuePathFor(['a', 'b'], 0)).toEqual([]);
    expect(queuePathFor(['a', 'b', 'c'], 3)).toEqual(['a', 'b', 'c']);
    expect(queuePathFor(['a', 'b'], 1)).toEqual(['a']);
    expect(queuePathFor(['a', 'b', 'c', 'd', 'e'], 3)).toEqual(['a', 'b', 'c']);
  });
});
