import { describe, expect, it } from 'vitest';
import { addressBlock } from './address-block';

describe('addressBlock', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:0:0:1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:1::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::198.51.100.1', '64:ff9b:0:0::/64'],
    // Not IPv4-mapped: ffff in its place, but not all zeros before it.
    ['1::ffff:203.0.113.7', '1:0:0:0::/64'],
    // The groups after "::" reaching into the /64.
    ['2001::1:2:3:4:5', '2001:0:0:1::/64'],
    [undefined, 'unknown'],
    ['not an address', 'not an address'],
  ])('%s is in the block %s', (ip, block) => {
    expect(addressBlock(ip)).toBe(block);
  });

  it('gives every spelling of one /64 one key, and the next /64 another', () => {
    const spellings = ['2001:db8:aa:bb::1', '2001:0db8:00aa:00bb:0000:0000:0000:0002', '2001:DB8:AA:BB:FFFF:FFFF:FFFF:FFFF', '2001:db8:aa:bb:1:2:192.0.2.1'];
    expect(new Set(spellings.map(addressBlock))).toEqual(new Set(['2001:db8:aa:bb::/64']));
    expect(addressBlock('2001:db8:aa:bc::1')).not.toBe(addressBlock('2001:db8:aa:bb::1'));
  });
});
