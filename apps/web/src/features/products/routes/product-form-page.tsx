import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ProductFormPage() {
  return <PlaceholderScreen screen="productForm" />;
}
