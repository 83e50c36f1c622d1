import { domainToASCII } from 'node:url';

/**
 * Cloud instance-metadata and platform endpoints, by address (canonical text). Most sit in non-public
 * ranges already; they are named so the reason says what they are, and 168.63.129.16 (Azure WireServer)
 * is in public space yet only answers from inside the cloud.
 */
const metadataAddressList: readonly (readonly [string, string])[] = [
  ['169.254.169.254', 'cloud metadata (aws, gcp, azure, oracle, openstack, digitalocean)'],
  ['169.254.170.2', 'aws ecs task metadata'],
  ['169.254.170.23', 'aws eks pod identity agent'],
  ['169.254.0.23', 'tencent cloud metadata'],
  ['100.100.100.200', 'alibaba cloud metadata'],
  ['192.0.0.192', 'oracle cloud metadata'],
  ['168.63.129.16', 'azure wireserver'],
  ['fd00:ec2::254', 'aws metadata over ipv6'],
  ['fd00:ec2::23', 'aws eks pod identity agent over ipv6'],
  ['fd20:ce::254', 'gcp metadata over ipv6'],
];

/** Metadata endpoints by canonical address text (IPv4 dotted, IPv6 as WHATWG serializes it, no brackets). */
export const metadataAddresses: ReadonlyMap<string, string> = new Map(
  metadataAddressList.map(([address, what]) => [
    address.includes(':') ? domainToASCII(`[${address}]`).slice(1, -1) : address,
    what,
  ]),
);

/** Host names (lower-case, no trailing dot) that reach a metadata service from inside a cloud. */
export const metadataNames: ReadonlyMap<string, string> = new Map([
  ['metadata', 'cloud metadata alias'],
  ['metadata.google.internal', 'gcp metadata'],
  ['metadata.goog', 'gcp metadata'],
  ['instance-data', 'aws metadata alias'],
  ['instance-data.ec2.internal', 'aws metadata alias'],
  ['metadata.packet.net', 'equinix metal metadata'],
  ['metadata.platformequinix.com', 'equinix metal metadata'],
  ['metadata.tencentyun.com', 'tencent cloud metadata'],
  ['metadata.azure.com', 'azure metadata'],
  ['rancher-metadata', 'rancher metadata'],
  ['kubernetes.default', 'kubernetes api server'],
  ['kubernetes.default.svc', 'kubernetes api server'],
]);
