import { PublicPlaceholder } from '@/features/public/components/public-placeholder';

export default function DemoRegisterPage() {
  return <PublicPlaceholder screen="demoRegister" />;
}
