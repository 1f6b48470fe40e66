import { describe, expect, it } from 'vitest';
import { splitWords, terms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Answer = { results: { id: string }[] };
const ids = (stdout: string) => (JSON.parse(stdout) as Answer).results.map((r) => r.id);

// DEC-093: names written in mixed case that are one word. "APIs" was the word "ap", "ADRs"
// the words "ad" and "rs", "IPv6" the word "pv6", "gRPC" the word "rpc" (its "g" too short to
// keep): a record writing "IPv6" never met code writing Ipv6Address, nor a question about ADRs one writing "adr".
describe('mixed-case names that are one word', () => {
  it('plural acronyms, a letter before an acronym and an acronym with a version stay one term', () => {
    expect(terms('APIs ADRs URLs IDs PRs UUIDs')).toEqual(['api', 'adr', 'url', 'id', 'pr', 'uuid']);
    expect(terms('gRPC iOS eBPF')).toEqual(['grpc', 'ios', 'ebpf']);
    expect(terms('IPv6 IPv4')).toEqual(['ipv6', 'ipv4']);
    // the same term in code, whatever its case
    expect(splitWords('getIPv6Address Ipv6Address gRPCClient userIDs listAPIs')).toEqual(['get', 'ipv6', 'address', 'ipv6', 'address', 'grpc', 'client', 'user', 'id', 'list', 'api']);
    // what splitting is for is unchanged
    expect(splitWords('parseHTTPRequest_v2 HTTPServer ILogger apiV2')).toEqual(['parse', 'http', 'request', 'v2', 'http', 'server', 'i', 'logger', 'api', 'v2']);
    // all capitals ending in S is an acronym of its own
    expect(terms('AWS CORS HTTPS')).toEqual(['aws', 'cor', 'http']);
  });

  it('search and for find a record by the name however the question or the code cases it', () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'docs/adr/0001-dual-stack-networking.md': '# 1. Dual-stack networking\n\n## Status\n\nAccepted\n\n## Context\n\nSome mail servers only answer over IPv6.\n\n## Decision\n\nEvery connection tries IPv6 first and falls back to IPv4 after 250 ms.\n',
      'docs/adr/0002-grpc-for-sync.md': '# 2. gRPC for the sync service\n\n## Status\n\nAccepted\n\n## Decision\n\nThe sync service speaks gRPC with protobuf messages; REST stays for the public APIs.\n',
      'docs/adr/0003-record-decisions.md': '# 3. Record decisions\n\n## Status\n\nAccepted\n\n## Decision\n\nWe keep ADRs in docs/adr, one file per decision.\n',
      'core/net/src/main/kotlin/net/example/Ipv6AddressSelector.kt': 'package net.example\n\n/** Picks the first reachable address. */\nclass Ipv6AddressSelector(private val timeoutMs: Long) {\n  fun preferIpv6(addresses: List<String>): List<String> = addresses.sortedBy { if (it.contains(":")) 0 else 1 }\n}\n',
    });
    repo.commit('records and code');
    for (const q of ['ipv6 fallback', 'IPV6 fallback']) {
      const r = runCli(['search', q, '--format', 'json'], { cwd: repo.dir });
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)[0]).toBe('ADR-0001');
    }
    const grpc = runCli(['search', 'GRPC protobuf', '--format', 'json'], { cwd: repo.dir });
    expect(ids(grpc.stdout)[0]).toBe('ADR-0002');
    const adr = runCli(['search', 'where do we keep the adr files', '--format', 'json'], { cwd: repo.dir });
    expect(ids(adr.stdout)[0]).toBe('ADR-0003');
    const place = runCli(['for', 'core/net/src/main/kotlin/net/example/Ipv6AddressSelector.kt', '--format', 'json'], { cwd: repo.dir });
    expect(place.code, place.stderr).toBe(0);
    expect(ids(place.stdout)[0]).toBe('ADR-0001');
  });
});
