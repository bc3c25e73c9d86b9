import type { SVGProps } from 'react';

/** A few line icons (24×24, stroke), so the app needs no icon library. */
type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function icon(paths: string[]) {
  return function Icon({ size = 20, ...props }: IconProps) {
    return (
      <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props}>
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  };
}

export const ShieldIcon = icon(['M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6l7-3z', 'M9 12l2 2 4-4']);
export const HomeIcon = icon(['M3 11l9-7 9 7', 'M5 10v10h5v-6h4v6h5V10']);
export const IdCardIcon = icon(['M3 6h18v12H3z', 'M8 13a2 2 0 100-4 2 2 0 000 4z', 'M5.5 16c.6-1.3 1.5-2 2.5-2s1.9.7 2.5 2', 'M14 10h4', 'M14 14h3']);
export const ServerIcon = icon(['M4 4h16v6H4z', 'M4 14h16v6H4z', 'M8 7h.01', 'M8 17h.01']);
export const UsersIcon = icon(['M9 11a3.5 3.5 0 100-7 3.5 3.5 0 000 7z', 'M2.5 20c.8-3.4 3.3-5.5 6.5-5.5s5.7 2.1 6.5 5.5', 'M16 4.3a3.5 3.5 0 010 6.4', 'M18 14.8c1.8.8 3 2.6 3.5 5.2']);
export const DevicesIcon = icon(['M3 5h13v10H3z', 'M1 18h17', 'M19 9h4v11h-4z']);
export const KeyIcon = icon(['M14 10a4 4 0 10-3.5 4L9 15.5V18H6.5v2.5H3V17l6.5-6.5A4 4 0 0014 10z', 'M15.5 8.5h.01']);
export const UserIcon = icon(['M12 12a4 4 0 100-8 4 4 0 000 8z', 'M4 21c1-4 4.2-6 8-6s7 2 8 6']);
export const PlusIcon = icon(['M12 5v14', 'M5 12h14']);
// The door on the left, the arrow leaving it (the door on the right, arrow in, is signing in).
export const LogoutIcon = icon(['M9 4H5v16h4', 'M16 17l5-5-5-5', 'M21 12H9']);
export const SwitchIcon = icon(['M7 7h13l-3-3', 'M17 17H4l3 3']);
export const OfflineIcon = icon(['M2 8.5a15 15 0 0120 0', 'M5.5 12a10 10 0 0113 0', 'M9 15.5a5 5 0 016 0', 'M12 19h.01', 'M3 3l18 18']);
export const ListIcon = icon(['M9 6h11', 'M9 12h11', 'M9 18h11', 'M4.5 6h.01', 'M4.5 12h.01', 'M4.5 18h.01']);
export const LockIcon = icon(['M5 11h14v10H5z', 'M8 11V7a4 4 0 118 0v4']);
export const ExternalIcon = icon(['M14 4h6v6', 'M20 4l-9 9', 'M18 14v6H4V6h6']);
export const CopyIcon = icon(['M9 9h11v11H9z', 'M15 9V4H4v11h5']);
export const CheckIcon = icon(['M5 12.5l4.5 4.5L19 7.5']);
export const AlertIcon = icon(['M12 3l10 18H2z', 'M12 10v4', 'M12 17.5h.01']);
