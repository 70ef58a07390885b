// The child process of svg-rasterizer.ts: renders one SVG with sharp (librsvg) at the density it
// is given and writes its pixels to stdout, after a 12-byte header (width, height, channels as
// big-endian uint32). Failures go to stderr with exit code 1.
//   node svg-rasterizer-process.ts <svg path> <density> <pixel limit> <time limit, ms>
import sharp from 'sharp';

const [file, density, limit, timeoutMs] = process.argv.slice(2);
// The parent kills this process on time; this timer ends it too should the parent be gone.
// librsvg renders on a libuv thread, so the main thread is free to fire it.
setTimeout(() => process.exit(2), Number(timeoutMs)).unref();
try {
  const { data, info } = await sharp(file!, { density: Number(density), limitInputPixels: Number(limit) })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const header = Buffer.alloc(12);
  header.writeUInt32BE(info.width, 0);
  header.writeUInt32BE(info.height, 4);
  header.writeUInt32BE(info.channels, 8);
  process.stdout.write(header);
  process.stdout.write(data);
} catch (error) {
  process.stderr.write((error as Error).message);
  process.exitCode = 1;
}
