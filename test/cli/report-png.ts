/** A minimal PNG reader for screenshot checks: 8-bit RGB or RGBA, non-interlaced (Chromium's). */
import { inflateSync } from 'node:zlib';

/** Decoded pixels, RGBA per pixel. */
export interface Image {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes a PNG file's bytes. Throws on anything but 8-bit RGB/RGBA non-interlaced. */
export function decodePng(bytes: Buffer): Image {
  if (bytes.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (pos < bytes.length) {
    const len = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const body = bytes.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      const colorType = body[9];
      if (depth !== 8 || (colorType !== 2 && colorType !== 6) || body[12] !== 0) throw new Error(`unsupported PNG (depth ${depth}, color type ${colorType})`);
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  const prev = new Uint8Array(stride);
  const cur = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const x = line[i] ?? 0;
      const a = i >= channels ? (cur[i - channels] ?? 0) : 0;
      const b = prev[i] ?? 0;
      const c = i >= channels ? (prev[i - channels] ?? 0) : 0;
      const v = filter === 0 ? x : filter === 1 ? x + a : filter === 2 ? x + b : filter === 3 ? x + ((a + b) >> 1) : x + paeth(a, b, c);
      cur[i] = v & 0xff;
    }
    for (let px = 0; px < width; px++) {
      const o = (y * width + px) * 4;
      out[o] = cur[px * channels] ?? 0;
      out[o + 1] = cur[px * channels + 1] ?? 0;
      out[o + 2] = cur[px * channels + 2] ?? 0;
      out[o + 3] = channels === 4 ? (cur[px * channels + 3] ?? 255) : 255;
    }
    prev.set(cur);
  }
  return { width, height, rgba: out };
}

/** Pixels within `tolerance` of a colour ("#2e7d32"). */
export function countColor(img: Image, hex: string, tolerance = 8): number {
  const r = parseInt(hex.slice(1, 3), 16);
  const g = parseInt(hex.slice(3, 5), 16);
  const b = parseInt(hex.slice(5, 7), 16);
  let n = 0;
  for (let i = 0; i < img.rgba.length; i += 4) {
    if (Math.abs((img.rgba[i] ?? 0) - r) <= tolerance && Math.abs((img.rgba[i + 1] ?? 0) - g) <= tolerance && Math.abs((img.rgba[i + 2] ?? 0) - b) <= tolerance)
      n++;
  }
  return n;
}

/** Number of distinct colours (a blank page has one or two). */
export function distinctColors(img: Image): number {
  const seen = new Set<number>();
  for (let i = 0; i < img.rgba.length; i += 4) seen.add(((img.rgba[i] ?? 0) << 16) | ((img.rgba[i + 1] ?? 0) << 8) | (img.rgba[i + 2] ?? 0));
  return seen.size;
}
