import { ActionIcon, CopyButton as MantineCopyButton, Tooltip } from '@mantine/core';
import { CheckIcon, CopyIcon } from './icons';

/** A small button that copies `value` (Home Guard runs only in secure contexts, where the Clipboard API is). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  return (
    <MantineCopyButton value={value} timeout={1_500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : label} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} aria-label={label} onClick={copy}>
            {copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </MantineCopyButton>
  );
}
