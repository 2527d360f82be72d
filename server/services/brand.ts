const HEX = /^#?([0-9a-f]{6})$/i;

/** The seller's colour as #rrggbb: config `mail.brand_color`, else the storefront's primary colour (the order e-mail and
 *  the wallet passes wear it). */
export function brandColorOf(config: Record<string, any>): string {
  const colour = [config.mail?.brand_color, config.web?.primary_color].find((c) => typeof c === 'string' && HEX.test(c));
  return colour ? `#${HEX.exec(colour)![1]}` : '#222222';
}
