/** One way the server draws a QR code (order, ticket, membership card): a PNG the scanners at the door read. The
 *  qrcode package loads with the first code drawn, not with every start of the server. */
export async function qrPng(text: string, width = 320): Promise<Buffer> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width });
}
