import { encode } from 'uqr';

/** `value` as a QR code, drawn as one SVG path (no canvas, no inline styles for the CSP to refuse). */
export function QrCode({ value, label, size = 184 }: { value: string; label: string; size?: number }) {
  // A quiet zone of 4 modules, as the QR standard asks, so every scanner finds the edges.
  const { data, size: modules } = encode(value, { ecc: 'M', border: 4 });
  const path = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : ''))).join('');
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${modules} ${modules}`} width={size} height={size} shapeRendering="crispEdges">
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
