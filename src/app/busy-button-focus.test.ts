import { afterEach, describe, expect, it } from 'vitest';
import { keepFocusOnBusyButtons } from './busy-button-focus';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('keepFocusOnBusyButtons', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    document.body.replaceChildren();
  });

  const page = () => {
    document.body.innerHTML = '<button id="save">Save</button><input id="name">';
    stop = keepFocusOnBusyButtons();
    const button = document.getElementById('save') as HTMLButtonElement;
    button.focus();
    return { button, field: document.getElementById('name') as HTMLInputElement };
  };

  it('gives the focus back to a button that lost it while busy', async () => {
    const { button } = page();
    button.disabled = true;
    await settle();
    expect(document.activeElement).toBe(document.body); // what Chromium does: the reason for all this
    button.disabled = false;
    await settle();
    expect(document.activeElement).toBe(button);
  });

  it('leaves the focus where the person or the page put it meanwhile', async () => {
    const { button, field } = page();
    button.disabled = true;
    await settle();
    field.focus();
    button.disabled = false;
    await settle();
    expect(document.activeElement).toBe(field);
  });

  it('gives it back without scrolling: the answer may have been scrolled into sight meanwhile', async () => {
    const { button } = page();
    document.body.append(Object.assign(document.createElement('div'), { style: 'height: 5000px' }));
    button.disabled = true;
    await settle();
    window.scrollTo(0, 3000);
    const scrolled = window.scrollY;
    button.disabled = false;
    await settle();
    expect([document.activeElement, window.scrollY]).toEqual([button, scrolled]);
    expect(scrolled).toBeGreaterThan(0);
  });

  it('does nothing more once stopped', async () => {
    const { button } = page();
    stop!();
    button.disabled = true;
    await settle();
    button.disabled = false;
    await settle();
    expect(document.activeElement).toBe(document.body);
  });

  it('does not take the focus later for a button that left the page or stayed disabled', async () => {
    const { button, field } = page();
    button.disabled = true;
    await settle();
    button.remove();
    button.disabled = false;
    await settle();
    expect(document.activeElement).toBe(document.body);

    document.body.append(button);
    button.focus();
    button.disabled = true;
    await settle();
    field.focus();
    field.blur();
    button.disabled = false;
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});
