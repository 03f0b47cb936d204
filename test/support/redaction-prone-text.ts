import fc from 'fast-check';

/**
 * Text made of what log redaction looks for (`key` and the start of keys, credential
 * names, `=`), next to what JSON escapes and what ends a value: where redacting a
 * line's JSON values one by one could differ from redacting the whole line.
 */
export function redactionProneText(key: string): fc.Arbitrary<string> {
  return fc
    .array(
      fc.constantFrom(
        'psk_',
        'psk%5f',
        key,
        'token',
        'password',
        'pwd',
        'token=v',
        'pwd=',
        'id',
        '=',
        '"',
        '\\',
        '/',
        '?',
        '&',
        ' ',
        'x',
        '.',
        '\u2028',
        'é',
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));
}
