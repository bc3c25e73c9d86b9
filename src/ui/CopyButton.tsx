import { ActionIcon, Tooltip, VisuallyHidden } from '@mantine/core';
import { CheckIcon, CopyIcon } from './icons';
import { COPY_FAILED, useCopy } from './use-copy';

/** A small button that copies `value`; a refused copy keeps its tooltip open to say so. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { outcome, copy } = useCopy(value);
  const failed = outcome === 'failed';
  return (
    <>
      {/* The tooltip stays in the page, inside its landmarks (a portal would sit outside them), whether hovered or held open. */}
      <Tooltip label={failed ? COPY_FAILED : outcome === 'copied' ? 'Copied' : label} opened={failed || undefined} color={failed ? 'red' : undefined} multiline={failed} w={failed ? 220 : undefined} withinPortal={false} withArrow>
        <ActionIcon variant="subtle" color={outcome === 'copied' ? 'teal' : failed ? 'red' : 'gray'} aria-label={label} onClick={copy}>
          {outcome === 'copied' ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
        </ActionIcon>
      </Tooltip>
      {/* The tooltip is seen, not heard: screen readers hear the outcome here. */}
      <VisuallyHidden role="status">{failed ? COPY_FAILED : outcome === 'copied' ? 'Copied' : ''}</VisuallyHidden>
    </>
  );
}
