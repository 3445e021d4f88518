/* Built with gcc -O2 -pthread -o probe_keep probe_keep.c; run as probe_keep 12.5e9 8:
   a 12.5 GB copy by 8 threads into fresh anonymous memory, default, with
   MADV_HUGEPAGE and with MADV_NOHUGEPAGE, three rounds. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
typedef struct {char*d;const char*s;size_t n;} job_t;
static void* run(void*a){job_t*j=a;memcpy(j->d,j->s,j->n);return NULL;}
static void cat(const char*p){char b[256];FILE*f=fopen(p,"r");if(!f)return;if(fgets(b,sizeof b,f))printf("%s: %s",p,b);fclose(f);}
int main(int argc,char**argv){
  size_t bytes=(size_t)(argc>1?atof(argv[1]):12.5e9); int th=argc>2?atoi(argv[2]):8;
  cat("/sys/kernel/mm/transparent_hugepage/enabled");cat("/sys/kernel/mm/transparent_hugepage/defrag");
  char*src=malloc(bytes); for(size_t i=0;i<bytes;i+=4096)src[i]=(char)i; memset(src,1,bytes);
  for(int rep=0;rep<3;rep++) for(int huge=0;huge<3;huge++){
    double t0=now();
    char*m=mmap(NULL,bytes,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
    if(huge==1)madvise(m,bytes,MADV_HUGEPAGE); if(huge==2)madvise(m,bytes,MADV_NOHUGEPAGE);
    pthread_t t[64];job_t j[64];size_t per=bytes/th;
    for(int i=0;i<th;i++){j[i].d=m+i*per;j[i].s=src+i*per;j[i].n=i==th-1?bytes-i*per:per;pthread_create(&t[i],NULL,run,&j[i]);}
    for(int i=0;i<th;i++)pthread_join(t[i],NULL);
    double t1=now(); munmap(m,bytes); double t2=now();
    printf("rep %d %s: copy %.3f s (%.1f GB/s), munmap %.3f s\n",rep,huge==1?"MADV_HUGEPAGE":huge==2?"MADV_NOHUGEPAGE":"default",t1-t0,bytes/(t1-t0)*1e-9,t2-t1);
    fflush(stdout);
  }
  return 0;}
