import { Fragment } from 'react';

/**
 * An email address that wraps only where a reader expects, after the @ and then before a dot of
 * the domain, never inside a word as the page's `overflow-wrap: anywhere` would. `<wbr>`, not a
 * zero-width space, so a copied address is the address.
 */
export function EmailAddress({ email }: { email: string }) {
  const domainStart = email.lastIndexOf('@') + 1;
  const pieces = [email.slice(0, domainStart), ...email.slice(domainStart).split(/(?=\.)/)].filter(Boolean);
  return (
    <span className="keep-whole">
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </span>
  );
}
