// Compound File Binary ([MS-CFB]) subtypes: MSI installers (by root CLSID or MSI-encoded stream names),
// legacy Office files, and VBA projects (`Macros`, `VBA`, `_VBA_PROJECT`, `_VBA_PROJECT_CUR` storages).

/** Most directory entries read from one compound file; a directory with more is uninterpretable, never judged by the first ones alone. */
export const maxCfbEntries = 65_536;

/** The kind of a compound file and, when it carries code, why it is executable. */
export interface CfbKind {
  kind: string;
  active: string | null;
  /** why the directory was not read whole (more than `maxCfbEntries` entries), or null */
  uninterpretable: string | null;
}

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
// {000C1084-…} installer package, {000C1086-…} patch, {000C1082-…} transform, mixed-endian as stored
const msiClsids = new Set([
  '84100c0000000000c000000000000046',
  '86100c0000000000c000000000000046',
  '82100c0000000000c000000000000046',
]);
const macroStorages = new Set(['macros', 'vba', '_vba_project', '_vba_project_cur']);
const END_OF_CHAIN = 0xfffffffe;

/** Classifies a compound file from its directory; falls back to `cfb` when the directory cannot be read. Never throws. */
export function classifyCfb(bytes: Buffer): CfbKind {
  const dir = readDirectory(bytes);
  if (dir === null) return { kind: 'cfb', active: null, uninterpretable: null };
  const uninterpretable = dir.truncated ? `compound file lists more than ${maxCfbEntries} directory entries` : null;
  if (msiClsids.has(dir.rootClsid) || dir.names.some(isMsiEncodedName))
    return { kind: 'msi', active: 'a windows installer package (msi)', uninterpretable };
  const lower = dir.names.map((n) => n.toLowerCase());
  const macro = lower.find((n) => macroStorages.has(n));
  const kind = lower.includes('worddocument')
    ? 'doc'
    : lower.includes('workbook') || lower.includes('book')
      ? 'xls'
      : lower.includes('powerpoint document')
        ? 'ppt'
        : 'cfb';
  return {
    kind,
    active: macro !== undefined ? `an office file with a vba project (\`${macro}\` storage)` : null,
    uninterpretable,
  };
}

/** True when a buffer starts with the compound file signature. */
export function isCfb(bytes: Uint8Array): boolean {
  return bytes.length >= 512 && Buffer.from(bytes.buffer, bytes.byteOffset, 8).equals(SIGNATURE);
}

// MSI compresses table and stream names into code points U+3800–U+4840
function isMsiEncodedName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x3800 && c <= 0x4840) return true;
  }
  return false;
}

function readDirectory(bytes: Buffer): { rootClsid: string; names: string[]; truncated: boolean } | null {
  if (!isCfb(bytes)) return null;
  const sectorShift = bytes.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return null;
  const sectorSize = 1 << sectorShift;
  const sectorCount = Math.floor((bytes.length - sectorSize) / sectorSize) + 1;
  const sectorAt = (id: number): number => (id + 1) * sectorSize;

  // FAT sector ids: 109 in the header, then the DIFAT chain (each sector: ids plus a next pointer). Only the
  // first `sectorCount` FAT entries can ever be looked up, so reading stops there: a DIFAT that names the
  // same sector again and again would otherwise grow the table by a whole sector per id
  const idsPerSector = sectorSize / 4;
  const fat: number[] = [];
  const addFatSector = (id: number): void => {
    if (id >= sectorCount) return;
    const base = sectorAt(id);
    if (base + sectorSize > bytes.length) return;
    for (let i = 0; i < idsPerSector; i++) fat.push(bytes.readUInt32LE(base + i * 4));
  };
  for (let i = 0; i < 109 && fat.length < sectorCount; i++) addFatSector(bytes.readUInt32LE(0x4c + i * 4));
  let difat = bytes.readUInt32LE(0x44);
  const seenDifat = new Set<number>();
  while (difat < sectorCount && !seenDifat.has(difat) && fat.length < sectorCount) {
    seenDifat.add(difat);
    const base = sectorAt(difat);
    if (base + sectorSize > bytes.length) break;
    for (let i = 0; i < idsPerSector - 1 && fat.length < sectorCount; i++)
      addFatSector(bytes.readUInt32LE(base + i * 4));
    difat = bytes.readUInt32LE(base + sectorSize - 4);
  }

  const names: string[] = [];
  let rootClsid = '';
  let sector = bytes.readUInt32LE(0x30);
  const seen = new Set<number>();
  let truncated = false;
  while (sector !== END_OF_CHAIN && sector < sectorCount && !seen.has(sector)) {
    if (names.length >= maxCfbEntries) {
      truncated = true;
      break;
    }
    seen.add(sector);
    const base = sectorAt(sector);
    for (let off = base; off + 128 <= Math.min(bytes.length, base + sectorSize); off += 128) {
      const type = bytes[off + 66];
      if (type === 0) continue;
      const nameBytes = Math.min(64, bytes.readUInt16LE(off + 64));
      const name = bytes.toString('utf16le', off, off + Math.max(0, nameBytes - 2));
      if (type === 5) rootClsid = bytes.toString('hex', off + 80, off + 96);
      names.push(name);
    }
    sector = fat[sector] ?? END_OF_CHAIN;
  }
  return names.length === 0 ? null : { rootClsid, names, truncated };
}
