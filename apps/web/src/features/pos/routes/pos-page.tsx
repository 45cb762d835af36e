import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PosPage() {
  return <PlaceholderScreen screen="pos" />;
}
