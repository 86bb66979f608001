import { guardOutbound, isReservedAddress, parseAllowedHost, RefusedAddressError } from './outbound-guard';

const guard = (url: string, allowedHosts: string[] = []) => guardOutbound(new URL(url), { allowedHosts });

describe('guardOutbound', () => {
  it.each([
    'http://127.0.0.1/docs.git',
    'http://127.1/docs.git',
    'http://0x7f000001/docs.git',
    'http://2130706433/docs.git',
    'http://10.0.0.8/docs.git',
    'http://172.16.3.4/docs.git',
    'http://192.168.1.1/docs.git',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/docs.git',
    'http://0.0.0.0/docs.git',
    'http://[::1]/docs.git',
    'http://[::ffff:127.0.0.1]/docs.git',
    'http://[fd00::1]/docs.git',
    'http://[fe80::1]/docs.git',
  ])('refuses %s before any connection', (url) => {
    expect(() => guard(url)).toThrow(RefusedAddressError);
  });

  it('lets public addresses through, and checks names when they are resolved for the connection', () => {
    expect(guard('https://140.82.112.3/docs.git')).toEqual({});
    expect(guard('https://git.example.com/docs.git').lookup).toEqual(expect.any(Function));
  });

  it('lets hosts an operator allows through, by name or address, on any port or the one given', () => {
    expect(guard('http://127.0.0.1:8080/docs.git', ['127.0.0.1'])).toEqual({});
    expect(guard('http://git.corp/docs.git', ['GIT.corp'])).toEqual({});
    expect(guard('http://git.corp:8443/docs.git', ['git.corp:8443'])).toEqual({});
    expect(guard('http://[::1]:3000/docs.git', ['[::1]:3000'])).toEqual({});
    expect(guard('http://git.corp/docs.git', ['git.corp:80'])).toEqual({});
    expect(() => guard('http://127.0.0.1:8081/docs.git', ['127.0.0.1:8080'])).toThrow(RefusedAddressError);
    expect(guard('http://git.corp:8444/docs.git', ['git.corp:8443']).lookup).toEqual(expect.any(Function));
    expect(() => guard('http://10.0.0.1/docs.git', ['git.corp'])).toThrow(RefusedAddressError);
  });

  it('refuses a name that resolves to a reserved address when the connection resolves it', async () => {
    const { lookup } = guard('http://localhost/docs.git');
    const error = await new Promise((resolve) => lookup!('localhost', { family: 0 } as any, (err) => resolve(err)));
    expect(error).toBeInstanceOf(RefusedAddressError);
  });
});

describe('isReservedAddress', () => {
  it('knows public from reserved addresses', () => {
    expect(isReservedAddress('8.8.8.8')).toBe(false);
    expect(isReservedAddress('2606:4700::1111')).toBe(false);
    expect(isReservedAddress('127.0.0.53')).toBe(true);
    expect(isReservedAddress('not an address')).toBe(true);
  });
});

describe('parseAllowedHost', () => {
  it('reads host and host:port, and nothing else', () => {
    expect(parseAllowedHost('git.corp')).toEqual({ hostname: 'git.corp' });
    expect(parseAllowedHost('git.corp:8443')).toEqual({ hostname: 'git.corp', port: '8443' });
    expect(parseAllowedHost('[::1]:80')).toEqual({ hostname: '[::1]', port: '80' });
    for (const bad of ['', 'https://git.corp', 'git.corp/path', 'user@git.corp', 'git corp']) expect(parseAllowedHost(bad)).toBeUndefined();
  });
});
