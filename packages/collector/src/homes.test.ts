import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DirEntry, detectLayout, discoverHomes, type ListDir, mapTargetPath, uniqueUsers } from './homes.js';

/** A fake directory tree: path → entries (a name ending in / is a directory). */
function fakeFs(tree: Record<string, string[]>, norm: (s: string) => string = (s) => s): ListDir {
  return (dir) => {
    const names = tree[norm(dir)];
    return names?.map((n): DirEntry => ({ name: n.replace(/\/$/, ''), isDir: n.endsWith('/') }));
  };
}

describe('home discovery', () => {
  it('finds Linux homes under /home and /root', () => {
    const list = fakeFs({ '/home': ['sean/', 'ana/', 'lost+found/', 'notes.txt'], '/': ['home/', 'root/', 'etc/'] });
    expect(discoverHomes('linux', path.posix, list)).toEqual(['/home/ana', '/home/sean', '/root']);
  });
  it('finds macOS homes under /Users (not Shared) and /var/root', () => {
    const list = fakeFs({ '/Users': ['Shared/', 'sean/', '.localized'], '/var': ['root/', 'db/'] });
    expect(discoverHomes('darwin', path.posix, list)).toEqual(['/Users/sean', '/var/root']);
  });
  it('finds Windows homes under %SystemDrive%\\Users, skipping the system profiles', () => {
    const list = fakeFs({
      'D:\\Users': ['Public/', 'Default/', 'Default User', 'All Users', 'desktop.ini', 'sean/', 'ANA/'],
    });
    expect(discoverHomes('win32', path.win32, list, { env: { SystemDrive: 'D:' } })).toEqual(['D:\\Users\\ANA', 'D:\\Users\\sean']);
  });
  it('applies the same rules under a mounted image (--root)', () => {
    const win = fakeFs({ 'E:\\img': ['Users/', 'Windows/'], 'E:\\img\\Users': ['Public/', 'sean/'] });
    expect(detectLayout('E:\\img', path.win32, win)).toBe('win32');
    expect(discoverHomes('win32', path.win32, win, { root: 'E:\\img' })).toEqual(['E:\\img\\Users\\sean']);
    const mac = fakeFs({
      '/mnt/mac': ['Users/', 'Library/', 'private/'],
      '/mnt/mac/Users': ['Shared/', 'sean/'],
      '/mnt/mac/private/var': ['root/'],
    });
    expect(detectLayout('/mnt/mac', path.posix, mac)).toBe('darwin');
    expect(discoverHomes('darwin', path.posix, mac, { root: '/mnt/mac' })).toEqual(['/mnt/mac/Users/sean', '/mnt/mac/private/var/root']);
    const lin = fakeFs({ '/mnt/l': ['home/', 'root/', 'etc/'], '/mnt/l/home': ['sean/'] });
    expect(detectLayout('/mnt/l', path.posix, lin)).toBe('linux');
    expect(discoverHomes('linux', path.posix, lin, { root: '/mnt/l' })).toEqual(['/mnt/l/home/sean', '/mnt/l/root']);
  });
  it('tells a bare Users/ folder apart by what the homes hold', () => {
    const mac = fakeFs({ '/m': ['Users/'], '/m/Users': ['sean/'], '/m/Users/sean': ['Library', 'Documents/'] });
    expect(detectLayout('/m', path.posix, mac)).toBe('darwin');
    const win = fakeFs({ '/w': ['Users/'], '/w/Users': ['sean/'], '/w/Users/sean': ['AppData/', 'NTUSER.DAT'] });
    expect(detectLayout('/w', path.posix, win)).toBe('win32');
    expect(detectLayout('/nothing', path.posix, fakeFs({}))).toBeUndefined();
  });
  it('makes user names unique with -2, -3', () => {
    expect(uniqueUsers(['/home/sean', '/mnt/a/home/sean', '/x/Sean', '/root'], path.posix).map((h) => h.user)).toEqual([
      'sean',
      'sean-2',
      'Sean-3',
      'root',
    ]);
    expect(uniqueUsers(['C:\\Users\\sean'], path.win32)[0].user).toBe('sean');
  });
  it('maps recorded project paths onto the live system or the mounted image', () => {
    expect(mapTargetPath('/srv/proj', 'linux', path.posix)).toBe('/srv/proj');
    expect(mapTargetPath('/srv/proj', 'linux', path.posix, '/mnt/img')).toBe('/mnt/img/srv/proj');
    expect(mapTargetPath('C:\\Users\\sean\\demo', 'win32', path.win32, 'E:\\img')).toBe('E:\\img\\Users\\sean\\demo');
    expect(mapTargetPath('C:/Users/sean/demo', 'win32', path.win32)).toBe('C:\\Users\\sean\\demo');
    expect(mapTargetPath('relative/x', 'linux', path.posix)).toBeUndefined();
    expect(mapTargetPath('/unix/on/windows', 'win32', path.win32)).toBeUndefined();
  });
});
