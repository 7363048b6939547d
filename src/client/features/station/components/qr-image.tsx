import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** A QR code as an image, drawn by the `qrcode` library in the browser (no server round trip). */
export function QrImage({ content, label, size = 96 }: { content: string; label: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(content, { margin: 1, width: size * 2, errorCorrectionLevel: 'M' })
      .then((url) => live && setSrc(url))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [content, size]);
  return src ? <img src={src} alt={label} width={size} height={size} /> : <span className="inline-block bg-gray-100" style={{ width: size, height: size }} aria-label={label} role="img" />;
}

/** A PNG of the code with the station name under it, for one download. */
export async function qrPng(content: string, caption: string): Promise<string> {
  const qr = await QRCode.toDataURL(content, { margin: 2, width: 480, errorCorrectionLevel: 'M' });
  const img = new Image();
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('二维码图片生成失败'));
    img.src = qr;
  });
  const canvas = document.createElement('canvas');
  canvas.width = 480;
  canvas.height = 540;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('二维码图片生成失败');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(img, 0, 0, 480, 480);
  g.fillStyle = '#111';
  g.font = '28px "Noto Sans CJK SC", sans-serif';
  g.textAlign = 'center';
  g.fillText(caption, 240, 520, 460);
  return canvas.toDataURL('image/png');
}
